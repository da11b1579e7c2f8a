"""Agreement of the checker with a careful human grader, on the hand-graded set `ifhier/data/agreement/answers.jsonl`.

Three figures (`ifhier.report.agreement.agreement_figures`): strict checker vs the hand `strict` labels (must be
100%: the checker implements its rules), loose checker vs the `human` labels (non-`?`), and strict checker vs the
`human` labels (the paper profile's over-strictness). Then every label where loose and human still differ."""
import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
from ifhier.report.agreement import load_agreement, agreement_table, agreement_figures, disagreements  # noqa: E402

def main():
    answers = load_agreement()
    tab = agreement_table(answers)
    print(f"{len(answers)} answers, {len(tab)} labels ({(tab.human == '?').sum()} human '?')")
    for r in agreement_figures(tab).itertuples():
        print(f"{r.comparison:34s} {r.agree:4d} / {r.n:4d} = {r.rate:6.1%}")
    below = ((tab.strict == "pass") & (tab.loose != "pass")).sum()
    print(f"labels where loose scores below strict: {below}")
    d = disagreements(tab, "loose")
    print(f"loose vs human still differ on {len(d)} labels:")
    for r in d.itertuples(): print(f"  {r.id} {r.node_path} {r.constraint}: loose {r.loose}, human {r.human}")

if __name__ == "__main__":
    main()
