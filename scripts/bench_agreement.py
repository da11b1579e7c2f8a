"""Agreement of the checker with hand labels (`ifhier.report.human_agreement`), per split of `ifhier/data/agreement/`.

`dev` and `heldout` were written and labelled blind (labels hashed before any scoring, checked on load); the
tolerances were tuned on `dev` only, and `heldout` is the figure quoted. `inhouse` is the earlier set written by
the checker's authors. For each split: strict vs design-rule labels (raw and adjudicated), loose vs careful
reader, strict vs careful reader, over-credit, each with a 95% bootstrap interval over answers; then every label
where loose and the reader still differ, and every adjudication."""
import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
from ifhier.report.human_agreement import load_agreement, agreement_table, agreement_figures, disagreements  # noqa: E402

def main():
    tab = agreement_table(load_agreement())
    for split in ("heldout", "dev", "inhouse"):
        t = tab[tab.split == split]
        print(f"\n[{split}] {t.id.nunique()} answers, {len(t)} labels ({(t.human == '?').sum()} reader '?')")
        for r in agreement_figures(t).itertuples():
            print(f"  {r.comparison:44s} {r.agree:4d} / {r.n:4d} = {r.rate:6.1%}  95% [{r.ci_low:6.1%}, {r.ci_high:6.1%}]  ({r.method})")
        print(f"  labels where loose scores below strict: {((t.strict == 'pass') & (t.loose != 'pass')).sum()}")
        d = disagreements(t, "loose")
        print(f"  loose vs reader differ on {len(d)} labels:")
        for r in d.itertuples(): print(f"    {r.id} {r.node_path} {r.constraint}: loose {r.loose}, reader {r.human} ({r.note[:90]})")
        a = t[t.adjudication != ""]
        print(f"  adjudicated labels: {len(a)}")
        for r in a.itertuples(): print(f"    {r.id} {r.node_path} {r.constraint}: strict {r.strict_raw} -> {r.strict_label}; {r.adjudication[:110]}")

if __name__ == "__main__":
    main()
