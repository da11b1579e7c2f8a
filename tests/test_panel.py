"""The development panel (scripts/panel.py): blind answers and sealed blind labels, scored against the checker."""
import shutil, subprocess, sys
from pathlib import Path
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
PANEL = ROOT / "ifhier" / "data" / "panel"

def _panel(*argv, cwd):
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "panel.py"), *map(str, argv)], capture_output=True, text=True, cwd=cwd, timeout=600)

ROUND4 = PANEL.parent / "panel_hard" / "round4"

def _records(path): return {r["id"]: r for r in pd.read_json(path, lines=True).to_dict("records")}

@pytest.fixture(scope="module")
def shipped_hard(): return _records(ROOT / "ifhier" / "data" / "ifhierbench_hard.jsonl")

@pytest.fixture(scope="module")
def shipped_core(): return _records(ROOT / "ifhier" / "data" / "ifhierbench.jsonl")

@pytest.fixture(scope="module")
def round4(tmp_path_factory):
    "Each round-4 draw scored once for the module: `round4(name)` gives (panel.py's stdout, its prompts.csv)."
    done, base = {}, tmp_path_factory.mktemp("round4")
    def scored(name):
        if name not in done:
            r = _panel("score", "--panel", ROUND4 / name, "--out", base / name, cwd=base)
            assert r.returncode == 0, r.stderr
            done[name] = (r.stdout, pd.read_csv(base / name / "prompts.csv"))
        return done[name]
    return scored

def test_shipped_panel_scores_with_every_constraint_labelled(tmp_path):
    r = _panel("score", "--panel", PANEL, "--out", tmp_path, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    df = pd.read_csv(tmp_path / "verdicts.csv")
    assert df.reader.notna().all() and set(df.voice) == {"ifhier", "paper"} and set(df.profile) == {"strict", "loose"}
    assert df.groupby(["voice", "profile"]).size().nunique() == 1            # both voices label the same constraints
    assert df.prompt_id.nunique() == 30 and set(df.depth) == {2, 3} and set(df.half) == {"dev", "held_out"}
    assert "paired wording effect" in r.stdout and "holm_p" in r.stdout

def test_labels_changed_after_the_seal_are_refused(tmp_path):
    p = tmp_path / "panel"; shutil.copytree(PANEL, p)
    lab = p / "labels_paper.jsonl"; lab.write_text(lab.read_text().replace('"label": "pass"', '"label": "fail"', 1))
    r = _panel("score", "--panel", p, "--out", tmp_path / "o", cwd=tmp_path)
    assert r.returncode != 0 and "changed since it was sealed" in r.stderr and "Traceback" not in r.stderr

def test_draw_is_seeded_and_keeps_a_held_out_half(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b): assert _panel("draw", "--out", d, "--seed", 5, "--per-depth", 4, cwd=tmp_path).returncode == 0
    assert (a / "prompts_paper.jsonl").read_bytes() == (b / "prompts_paper.jsonl").read_bytes()
    halves = pd.read_json(a / "bench.jsonl", lines=True)["half"].value_counts().to_dict()
    assert halves == {"dev": 4, "held_out": 4}   # 4 per depth at depths 2 and 3

def test_draw_from_another_bench_in_one_voice(tmp_path):
    "A tier file can be drawn in ifhier's voice only; scoring then prints accuracy with Wilson CIs and no wording effect."
    src = pd.read_json(PANEL / "bench.jsonl", lines=True).drop(columns="half")
    bench = tmp_path / "b.jsonl"; src.to_json(bench, orient="records", lines=True)
    out = tmp_path / "p"
    r = _panel("draw", "--out", out, "--bench", bench, "--voices", "ifhier", "--per-depth", 2, "--depths", "3", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (out / "prompts_ifhier.jsonl").exists() and not (out / "prompts_paper.jsonl").exists()
    drawn = pd.read_json(out / "bench.jsonl", lines=True)
    assert len(drawn) == 2 and set(drawn.depth) == {3} and set(drawn.id) <= set(src.id)
    ans = pd.read_json(PANEL / "answers_ifhier.jsonl", lines=True)
    ans[ans.prompt_id.isin(drawn.id)].to_json(out / "answers_ifhier.jsonl", orient="records", lines=True)
    lab = pd.read_json(PANEL / "labels_ifhier.jsonl", lines=True)
    lab[lab.prompt_id.isin(drawn.id)].to_json(out / "labels_ifhier.jsonl", orient="records", lines=True)
    assert _panel("seal", "--panel", out, cwd=tmp_path).returncode == 0
    r = _panel("score", "--panel", out, "--out", tmp_path / "o", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Wilson 95% CI" in r.stdout and "paired wording effect" not in r.stdout
    assert set(pd.read_csv(tmp_path / "o" / "verdicts.csv").voice) == {"ifhier"}
    bad = _panel("draw", "--out", tmp_path / "q", "--bench", bench, "--per-depth", 99, "--depths", "3", cwd=tmp_path)
    assert bad.returncode != 0 and "cannot draw 99" in bad.stderr and "Traceback" not in bad.stderr

def test_shipped_hard_panel_is_the_shipped_hard_tier_and_scores(tmp_path):
    "The first hard-tier panel (build 2.0-hard, kept whole in its own bench.jsonl) scores; every constraint carries a sealed label."
    drawn = pd.read_json(PANEL.parent / "panel_hard" / "bench.jsonl", lines=True).to_dict("records")
    assert len(drawn) == 32 and {r["builder_version"] for r in drawn} == {"ifhier-build/2.0-hard"}
    r = _panel("score", "--panel", PANEL.parent / "panel_hard", "--out", tmp_path, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    df = pd.read_csv(tmp_path / "verdicts.csv")
    assert df.reader.notna().all() and set(df.voice) == {"ifhier"} and set(df.depth) == {0, 1, 2, 3}
    p = pd.read_csv(tmp_path / "prompts.csv")
    assert p.groupby("depth").size().to_dict() == {0: 8, 1: 8, 2: 8, 3: 8}
    assert "Wilson 95% CI" in r.stdout and "paired wording effect" not in r.stdout

def test_second_hard_panel_scores_as_its_provenance_says(tmp_path, shipped_core):
    "Round 2 (a fresh draw on build 2.1-hard, seed 26): checker and readers agree on 486 of 487; 32/32 prompts pass; the one checker failure is 'Moon's' counted as two words."
    R = PANEL.parent / "panel_hard" / "round2"
    drawn = pd.read_json(R / "bench.jsonl", lines=True).to_dict("records")
    assert len(drawn) == 32 and {r["builder_version"] for r in drawn} == {"ifhier-build/2.1-hard"}
    r = _panel("score", "--panel", R, "--out", tmp_path, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "agree on 486/487 constraints" in r.stdout
    df = pd.read_csv(tmp_path / "verdicts.csv")
    assert df.reader.notna().all() and len(df) == 2 * 487
    off = df[(df.checker != df.reader) & (df.profile == "strict")]
    assert len(off) == 1 and off.iloc[0].constraint == "string.num_words" and off.iloc[0].reader == "pass"
    p = pd.read_csv(tmp_path / "prompts.csv")
    assert p.passed.all() and p.groupby("depth").size().to_dict() == {0: 8, 1: 8, 2: 8, 3: 8}
    later = pd.read_csv(PANEL.parent / "panel_hard" / "readability_core_2.1_vs_hard_2.2.csv")
    assert len(later) == 80 and set(later.rater) == {"E", "F"} and later.as_shipped.sum() == 74   # 37 prompts x 2 raters as shipped in core 2.1 and hard 2.2
    assert set(later[later.build == "core-2.1"].id) <= set(shipped_core)
    rt = pd.read_csv(R / "readability_core_2.0_vs_hard_2.1.csv")
    assert len(rt) == 80 and set(rt.rater) == {"A", "B"} and rt.groupby("build").size().to_dict() == {"core-2.0": 40, "hard-2.1": 40}

def test_third_hard_panel_scores_as_its_provenance_says(tmp_path, shipped_core):
    "Round 3 (build 2.3-hard, seed 33; core 2.1, seed 34): streaming answers fail the hard tier as the provenance says, reasoning answers pass it, the core control passes."
    R = PANEL.parent / "panel_hard" / "round3"
    drawn = pd.read_json(R / "hard_streaming" / "bench.jsonl", lines=True).to_dict("records")
    assert len(drawn) == 32 and {r["builder_version"] for r in drawn} == {"ifhier-build/2.3-hard"}   # the build before the form rule
    assert (R / "hard_streaming" / "bench.jsonl").read_bytes() == (R / "hard_reasoning" / "bench.jsonl").read_bytes()
    want = {"hard_streaming": ({0: 7, 1: 3, 2: 3, 3: 0}, 441, 445), "hard_reasoning": ({0: 8, 1: 8, 2: 8, 3: 8}, 445, 445),
            "core_streaming": ({0: 7, 1: 8, 2: 8, 3: 8}, 155, 155)}
    for name, (per_depth, agree, n) in want.items():
        r = _panel("score", "--panel", R / name, "--out", tmp_path / name, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert f"agree on {agree}/{n} constraints" in r.stdout, r.stdout
        p = pd.read_csv(tmp_path / name / "prompts.csv")
        assert p.groupby("depth").passed.sum().to_dict() == per_depth, (name, p.groupby("depth").passed.sum().to_dict())
        df = pd.read_csv(tmp_path / name / "verdicts.csv")
        assert df.reader.notna().all() and len(df) == 2 * n
    rt = pd.read_csv(R / "readability_core_2.1_vs_hard_2.3.csv")
    assert len(rt) == 80 and set(rt.rater) == {"G", "H"} and rt.groupby("build").size().to_dict() == {"core-2.1": 40, "hard-2.3": 40}
    means = rt.groupby("build").clarity.mean().round(2).to_dict()
    assert means == {"core-2.1": 3.95, "hard-2.3": 3.4}, means
    assert set(rt[rt.build == "core-2.1"].id) <= set(shipped_core)

def test_fourth_hard_panel_scores_as_its_provenance_says(round4, shipped_hard, shipped_core):
    "Round 4 (build 2.4-hard, seed 36): streaming answers pass 11/32 with every failure confirmed, and raters find it as clear as the core."
    R, hard = ROUND4, shipped_hard
    drawn = pd.read_json(R / "hard_streaming" / "bench.jsonl", lines=True).to_dict("records")
    assert len(drawn) == 32 and {r["builder_version"] for r in drawn} == {"ifhier-build/2.4-hard"}
    deep = [r for r in drawn if r["depth"] > 0]   # 2.5-hard changed only depth 0's whole-answer windows: depths 1-3 are the shipped prompts
    assert len(deep) == 24 and all(r["tree"] == hard[r["id"]]["tree"] and r["prompt"] == hard[r["id"]]["prompt"] for r in deep)
    out, p = round4("hard_streaming")
    assert "agree on 402/406 constraints" in out and "confirms: 28/30" in out, out
    assert p.groupby("depth").passed.sum().to_dict() == {0: 5, 1: 2, 2: 2, 3: 2}
    assert p.groupby("half").passed.sum().to_dict() == {"dev": 4, "held_out": 7}
    rt = pd.read_csv(R / "readability_core_2.1_vs_hard_2.4.csv")
    assert len(rt) == 80 and set(rt.rater) == {"I", "J"} and rt.groupby("build").size().to_dict() == {"core-2.1": 40, "hard-2.4": 40}
    assert rt.groupby("build").clarity.mean().round(2).to_dict() == {"core-2.1": 3.55, "hard-2.4": 3.55}
    assert set(rt[rt.build == "core-2.1"].id) <= set(shipped_core) and set(rt[rt.build == "hard-2.4"].id) <= set(hard)

def test_fourth_hard_panel_second_draw_and_raters(round4):
    "Round 4, second draw (2.4-hard, seed 57, no prompt shared with seed 36) and raters K, L: 9/32 pass, every failure confirmed; pooled clarity within 0.11 of the core."
    R = ROUND4
    first = set(pd.read_json(R / "hard_streaming" / "bench.jsonl", lines=True).id)
    drawn = pd.read_json(R / "hard_streaming_seed57" / "bench.jsonl", lines=True)
    assert len(drawn) == 32 and not first & set(drawn.id)
    out, p = round4("hard_streaming_seed57")
    assert "agree on 451/455 constraints" in out and "confirms: 33/36" in out, out
    assert p.groupby("depth").passed.sum().to_dict() == {0: 1, 1: 5, 2: 2, 3: 1}
    ij, kl = (pd.read_csv(R / f) for f in ("readability_core_2.1_vs_hard_2.4.csv", "readability_core_2.1_vs_hard_2.4_raters_KL.csv"))
    assert set(kl.rater) == {"K", "L"} and len(kl) == 80 and not set(ij.id) & set(kl.id)
    both = pd.concat([ij, kl]).groupby(["build", "id"]).clarity.mean().groupby("build").mean().round(2).to_dict()
    assert both == {"core-2.1": 3.76, "hard-2.4": 3.65}, both

def test_hard_2_5_panel_falls_with_depth(round4, shipped_hard):
    "Build 2.5-hard on the panel: depth 0 answered afresh (seed 62, 16 prompts); depths 1-3 are round 4's two draws, whose prompts 2.5 keeps byte for byte. 25/64 overall, 69% -> 44% -> 25% -> 19% by depth."
    R, hard = ROUND4, shipped_hard
    zero = pd.read_json(R / "hard_streaming_depth0_seed62" / "bench.jsonl", lines=True).to_dict("records")
    assert len(zero) == 16 and {r["depth"] for r in zero} == {0} and {r["builder_version"] for r in zero} == {"ifhier-build/2.5-hard"}
    assert all(r["tree"] == hard[r["id"]]["tree"] and r["prompt"] == hard[r["id"]]["prompt"] for r in zero)
    passed, agree = {}, 0
    for name in ("hard_streaming_depth0_seed62", "hard_streaming", "hard_streaming_seed57"):
        out, prompts = round4(name)
        agree += int(out.split("loose: checker vs blind reader agree on ")[1].split("/")[0])
        bench = _records(R / name / "bench.jsonl")
        for row in prompts.to_dict("records"):
            rec = bench[row["prompt_id"]]
            if rec["depth"] == 0 and name != "hard_streaming_depth0_seed62": continue   # 2.4's depth 0, which 2.5 changed
            assert rec["tree"] == hard[rec["id"]]["tree"] and rec["prompt"] == hard[rec["id"]]["prompt"]   # what 2.5 ships
            passed.setdefault(rec["depth"], []).append(bool(row["passed"]))
    assert {d: (sum(v), len(v)) for d, v in sorted(passed.items())} == {0: (11, 16), 1: (7, 16), 2: (4, 16), 3: (3, 16)}
    assert agree == 67 + 402 + 451

def test_hard_2_5_answered_after_reasoning_passes(round4, shipped_hard):
    "Draw D: round 4's seed-36 depth-2/3 prompts (shipped unchanged in 2.5) answered by an answerer that may reason first pass 16/16, where straight-through answers passed 4/16."
    R, hard = ROUND4, shipped_hard
    d = pd.read_json(R / "hard_reasoning_d23" / "bench.jsonl", lines=True).to_dict("records")
    a = {r["id"] for r in pd.read_json(R / "hard_streaming" / "bench.jsonl", lines=True).to_dict("records") if r["depth"] >= 2}
    assert {r["id"] for r in d} == a and all(r["tree"] == hard[r["id"]]["tree"] and r["prompt"] == hard[r["id"]]["prompt"] for r in d)
    for name, want in (("hard_reasoning_d23", 16), ("hard_streaming", 4)):
        out, p = round4(name)
        assert int(p[p.prompt_id.isin(a)].passed.sum()) == want, (name, p)
    assert "agree on 282/282 constraints" in round4("hard_reasoning_d23")[0]

def test_round_trip_packets_answers_readers_labels(tmp_path):
    "The whole protocol from the script: a draw that leaves out used prompts, answerer packets, answers read back, reader packets, labels read back, sealed, scored."
    import json, re
    from ifhier.bench.witness import witness_response
    used = _records(PANEL / "bench.jsonl")
    p, pk = tmp_path / "p", tmp_path / "pk"
    assert _panel("draw", "--out", p, "--seed", 3, "--per-depth", 2, "--voices", "ifhier", "--exclude", PANEL, cwd=tmp_path).returncode == 0
    bench = _records(p / "bench.jsonl")
    assert len(bench) == 4 and not set(bench) & set(used)                     # no prompt an earlier panel used
    proto = tmp_path / "answerer.txt"; proto.write_text("Read {PF}; write {AF}.")
    r = _panel("packets", "--panel", p, "--protocol", proto, "--sessions", 2, "--seed", 9, "--out", pk, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (pk / "ask_A.txt").read_text() == f"Read {(pk / 'prompts_A.txt').resolve()}; write {(pk / 'answers_A.txt').resolve()}."
    ids = json.loads((pk / "neutral_ids.json").read_text())["answerer_ids"]
    for s in "AB":                                                             # each session answers its own packet
        got = re.findall(r"^=== PROMPT (p\d\d) ===$", (pk / f"prompts_{s}.txt").read_text(), flags=re.M)
        assert len(got) == 2
        (pk / f"answers_{s}.txt").write_text("".join(f"=== ANSWER {q} ===\n{witness_response(bench[ids[q]]['tree'])}\n\n" for q in got))
    r = _panel("answers", "--panel", p, "--packets", pk, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert _panel("sheets", "--panel", p, "--out", tmp_path / "sh", cwd=tmp_path).returncode == 0
    rp = tmp_path / "reader.txt"; rp.write_text("Read {PK}; write {OUT}.")
    r = _panel("readers", "--panel", p, "--sheets", tmp_path / "sh", "--protocol", rp, "--sessions", 2, "--seed", 4, "--out", pk, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    for k in range(2):
        items = re.findall(r"^##### ITEM (r\d\d) #####$|^(\d+)\. ", (pk / f"items_{k}.txt").read_text(), flags=re.M)
        rid, lines = None, []
        for a, b in items:
            if a: rid = a
            else: lines.append(json.dumps(dict(rid=rid, index=int(b), label="pass", why="read")))
        (pk / f"labels_{k}.jsonl").write_text("\n".join(lines) + "\n")
    assert _panel("labels", "--panel", p, "--packets", pk, cwd=tmp_path).returncode == 0
    assert _panel("seal", "--panel", p, cwd=tmp_path).returncode == 0
    r = _panel("score", "--panel", p, "--out", tmp_path / "o", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    n = sum(1 for _ in open(p / "labels_ifhier.jsonl"))
    assert f"agree on {n}/{n} constraints" in r.stdout                         # witnesses pass, readers said pass
    assert (pd.read_csv(tmp_path / "o" / "prompts.csv").passed).all()

def test_protocol_files_refuse_what_is_missing(tmp_path):
    "A missing answer, an unnamed session file, or an --exclude path that is not there: one clear line, no traceback."
    p, pk = tmp_path / "p", tmp_path / "pk"
    assert _panel("draw", "--out", p, "--seed", 3, "--per-depth", 1, "--voices", "ifhier", cwd=tmp_path).returncode == 0
    bad = tmp_path / "bad.txt"; bad.write_text("no placeholders here")
    r = _panel("packets", "--panel", p, "--protocol", bad, "--sessions", 1, "--seed", 1, "--out", pk, cwd=tmp_path)
    assert r.returncode != 0 and "must name {PF}" in r.stderr and "Traceback" not in r.stderr
    ok = tmp_path / "ok.txt"; ok.write_text("{PF} {AF}")
    assert _panel("packets", "--panel", p, "--protocol", ok, "--sessions", 1, "--seed", 1, "--out", pk, cwd=tmp_path).returncode == 0
    (pk / "answers_A.txt").write_text("=== ANSWER p01 ===\nhello\n")
    r = _panel("answers", "--panel", p, "--packets", pk, cwd=tmp_path)
    assert r.returncode != 0 and "no answer for p02" in r.stderr and "Traceback" not in r.stderr
    r = _panel("draw", "--out", tmp_path / "q", "--exclude", tmp_path / "nowhere", cwd=tmp_path)
    assert r.returncode != 0 and "no such file or folder" in r.stderr and "Traceback" not in r.stderr

ROUND5 = ROUND4.parent / "round5"

def test_fifth_hard_panel_scores_as_its_provenance_says(tmp_path, shipped_hard):
    "Round 5: the shipped 2.5-hard answered as a chat model would (no word on thinking) passes 32/32, 488/489 agreed; a candidate with 2-3x longer counted parts, answered after reasoning, 16/16, 360/360."
    e = pd.read_json(ROUND5 / "hard_chat_seed80" / "bench.jsonl", lines=True).to_dict("records")
    assert len(e) == 32 and all(r["tree"] == shipped_hard[r["id"]]["tree"] and r["prompt"] == shipped_hard[r["id"]]["prompt"] for r in e)
    earlier = {i for f in (ROUND4.parent).rglob("bench.jsonl") if "round5" not in str(f) for i in pd.read_json(f, lines=True).id}
    assert not {r["id"] for r in e} & earlier                                  # drawn with --exclude: no prompt used before
    r = _panel("score", "--panel", ROUND5 / "hard_chat_seed80", "--out", tmp_path / "e", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "agree on 488/489 constraints" in r.stdout and "confirms: 0/1" in r.stdout, r.stdout
    p = pd.read_csv(tmp_path / "e" / "prompts.csv")
    assert p.groupby("depth").passed.sum().to_dict() == {0: 8, 1: 8, 2: 8, 3: 8}
    c = pd.read_json(ROUND5 / "candidate_2.6_reasoning_d23" / "bench.jsonl", lines=True)
    assert set(c.builder_version) == {"ifhier-build/2.6-hard-cand"} and set(c.depth) == {2, 3}
    r = _panel("score", "--panel", ROUND5 / "candidate_2.6_reasoning_d23", "--out", tmp_path / "c", cwd=tmp_path)
    assert r.returncode == 0 and "agree on 360/360 constraints" in r.stdout, r.stdout
    assert pd.read_csv(tmp_path / "c" / "prompts.csv").passed.all()

def test_fifth_panel_packets_rebuild_from_the_recorded_seeds(tmp_path):
    "The packets round 5's sessions saw are rebuilt by `panel.py packets` from the folder and the recorded seed, with the recorded neutral ids."
    import json
    ids = json.loads((ROUND5 / "protocol" / "neutral_ids.json").read_text())
    for name, sessions in (("hard_chat_seed80", 4), ("candidate_2.6_reasoning_d23", 2)):
        rec = ids[name]
        r = _panel("packets", "--panel", ROUND5 / name, "--protocol", ROUND5 / "protocol" / "answerer_chat.txt", "--sessions", sessions,
                   "--seed", rec["answerer_seed"], "--out", tmp_path / name, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert json.loads((tmp_path / name / "neutral_ids.json").read_text())["answerer_ids"] == rec["answerer_ids"]
