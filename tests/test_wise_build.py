"WISE items, forms, prompt building and grading (H4)."
import json, subprocess, sys
from pathlib import Path
import pandas as pd
import pytest
import yaml
from ifhier.io import data_path
from ifhier.wise.items import WiseError, load_forms, load_items
from ifhier.wise.build import GRADED_COLUMNS, build_prompts, by_panel, grade, panel_forms, write_jsonl

FIX = Path(__file__).resolve().parents[1]/"nbs"/"fixtures"

def test_shipped_items_are_valid_and_matched():
    items = load_items()
    assert len(items) >= 100
    assert len({i["task"].lower() for i in items}) == len(items)
    assert all(i["task"].rstrip().endswith("?") for i in items)
    assert len({tuple(i["keys"]) for i in items}) >= 5          # key sets vary

def test_shipped_forms_cover_the_paper_panels():
    f = load_forms()
    assert panel_forms(f) == {
        "original": ("exact_count", ["POS", "NEG", "NEVER", "AVOID1", "AVOID2", "CNEG"]),
        "avoidance": ("exact_count", ["POS", "AVOID1", "AVOID3", "AVOID4", "EXCLUDE1", "EXCLUDE2"]),
        "constructional": ("exact_count", ["POS", "AVOID1", "POS_LONG", "POS_END"]),
        "keyword": ("keyword_once", ["POS", "NEG", "AVOID"]), "range": ("range_8_12", ["POS", "NEG", "AVOID"]),
        "json": ("json_keys", ["POS", "NEG", "AVOID"])}
    for fam in f["families"].values():
        assert len({fo["requirement"] for fo in fam["forms"].values()}) == 1   # one requirement per family

def _write_forms(tmp_path, mutate):
    s = yaml.safe_load(data_path("wise", "forms.yaml").read_text()); mutate(s)
    p = tmp_path/"forms.yaml"; p.write_text(yaml.safe_dump(s)); return p

@pytest.mark.parametrize("mutate,msg", [
    (lambda s: s["families"]["json_keys"]["forms"]["AVOID"].pop("template"), "families.json_keys.forms.AVOID: missing field 'template'"),
    (lambda s: s["families"]["json_keys"]["forms"]["AVOID"].pop("panels"), "forms.AVOID: missing field 'panels'"),
    (lambda s: s["families"]["keyword_once"].pop("forms"), "families.keyword_once: missing field 'forms'"),
    (lambda s: s["families"]["exact_count"].update(prompt="{instruction}"), "'prompt' must use {task} and {instruction}"),
    (lambda s: s["families"]["exact_count"].update(target_assignment="random"), "'crossed' or 'cycle'"),
    (lambda s: s.pop("families"), "missing field 'families'")])
def test_forms_validation_names_the_field(tmp_path, mutate, msg):
    with pytest.raises(WiseError, match=msg.replace("{", r"\{").replace("}", r"\}").replace("(", r"\(")):
        load_forms(_write_forms(tmp_path, mutate))

def test_a_family_added_in_yaml_alone_builds_and_grades(tmp_path):
    def add(s):
        s["panels"]["short"] = {"title": "At most 5 words (exact 3)", "family": "three_words"}
        s["families"]["three_words"] = {"description": "exactly three words", "grader": "exact_words", "targets": [3],
            "forms": {"POS": {"template": "Reply in exactly {N} words.", "requirement": "3 words", "panels": ["short"]},
                      "NEG": {"template": "Do not reply in more or fewer than {N} words.", "requirement": "3 words", "panels": ["short"]}}}
    forms = load_forms(_write_forms(tmp_path, add))
    ps = build_prompts(load_items()[:2], forms, repeats=1, families=["three_words"])
    assert sorted(p["id"] for p in ps) == sorted(f"three_words:{f}:w00{i}:t3:r0" for f in ("POS", "NEG") for i in (1, 2))
    ans = [dict(prompt_id=p["id"], model="m", provider="p", response="one two three") for p in ps]
    g = grade(ans, ps)
    assert g.compliant.all() and set(by_panel(g, forms).family) == {"short"}

def test_build_is_byte_deterministic(tmp_path):
    a = write_jsonl(build_prompts(seed=3), tmp_path/"a.jsonl").read_bytes()
    b = write_jsonl(build_prompts(seed=3), tmp_path/"b.jsonl").read_bytes()
    c = write_jsonl(build_prompts(seed=4), tmp_path/"c.jsonl").read_bytes()
    assert a == b and a != c and sorted(a.splitlines()) == sorted(c.splitlines())

def test_build_counts_and_prompt_text():
    ps = build_prompts(repeats=2)
    n = len(load_items())
    assert len(ps) == 2 * n * (12 * 4 + 3 + 3 + 3)
    p = next(p for p in ps if p["id"] == "exact_count:AVOID1:w001:t12:r1")
    assert p["prompt"] == "Which planet in our solar system has the most moons? Avoid using any number of words other than 12."
    assert p["params"] == {"target": 12} and p["panels"] == ["original", "avoidance", "constructional"]

def test_grade_fixture_end_to_end():
    g = grade(FIX/"wise_answers_small.jsonl", FIX/"wise_prompts_small.jsonl")
    assert list(g.columns) == GRADED_COLUMNS
    got = g[~g.missing].set_index(["model", "prompt_id"])
    assert got.loc[("demo-a", "exact_count:AVOID1:w001:t5:r0"), ["count", "error", "outcome"]].tolist() == [6, 1, "over"]
    assert got.loc[("demo-a", "json_keys:NEG:w001:r0"), "parse_ok"] == False
    assert got.loc[("openai/gpt-sim", "json_keys:AVOID:w002:r0"), "outcome"] == "key_mismatch"
    miss = g[g.missing]
    assert (~miss.compliant).all() and (miss["count"].fillna(0) == 0).all()
    assert g.groupby(["model", "family", "form"]).size().groupby(level=[0, 1]).nunique().max() == 1   # balanced cells

def test_cli_build_grade_roundtrip(tmp_path):
    p = subprocess.run([sys.executable, "-c", "import sys; from ifhier.cli import main; sys.exit(main(sys.argv[1:]))",
                        "wise", "build", "--out", str(tmp_path/"p.jsonl"), "--repeats", "1", "--families", "json_keys"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    (tmp_path/"a.jsonl").write_text('{"prompt_id": "json_keys:POS:w001:r0", "model": "m", "response": "{}"}\n{oops\n')
    q = subprocess.run([sys.executable, "-c", "import sys; from ifhier.cli import main; sys.exit(main(sys.argv[1:]))",
                        "wise", "grade", "--prompts", str(tmp_path/"p.jsonl"), "--answers", str(tmp_path/"a.jsonl"),
                        "--out", str(tmp_path/"g.csv")], capture_output=True, text=True)
    assert q.returncode == 2 and q.stderr.strip() == f"ifhier: error: {tmp_path/'a.jsonl'}:2: not JSON (Expecting property name enclosed in double quotes)"
