"Regressions for the strict profile's defects (each failed on the checker before the fix)."
from ifhier.verdicts import check
from ifhier.scopes import parse_scope, parse_labeled, parse_markdown, parse_list, parse_json
from ifhier.code import find_comment
from ifhier.registry import get_type

def _run(cid, text, **p): return get_type(cid)(text, **p).passed

def test_1_indented_list_under_label_and_heading():
    lab = parse_labeled("Ingredients:\n  - beans\n  - onions\n  - chili\nSteps: cook")
    assert parse_list(lab.section("Ingredients")) == ["beans", "onions", "chili"]
    md = parse_markdown("## Items\n    1. mix\n    2. stir\n    3. serve\n## Next\nx")
    assert parse_list(md.section("Items")) == ["mix", "stir", "serve"]

def test_2_first_item_indented_one_space():
    assert parse_list(" - apples\n- pears\n- plums") == ["apples", "pears", "plums"]
    assert parse_list("- a\n  - nested\n- b") == ["a\n- nested", "b"]        # nesting still nests

def test_3_tilde_and_long_fences_around_root_json():
    assert parse_json('~~~json\n{"a": 1}\n~~~') == ({"a": 1}, "")
    assert parse_json('````json\n{"code": "```py\\nx\\n```"}\n````')[0] == {"code": "```py\nx\n```"}
    tree = {"kind": "json", "constraints": [{"id": "json.key_count", "params": {"rel": "exactly", "n": 1}}]}
    assert check(tree, '~~~\n{"a": 1}\n~~~')[0].verdict == "pass"

def test_4_fence_indented_inside_list_item():
    md = "1. Install:\n\n    ```js\n    let s = `\n    ## not a heading`;\n    ```\n2. Run it"
    doc = parse_scope("markdown", md)[0]
    assert [b.language for b in doc.code_blocks] == ["js"] and doc.headings == ()
    assert _run("markdown.has_code_block", md, language="javascript")
    assert parse_list(md) == ["Install:\n\n```js\nlet s = `\n## not a heading`;\n```", "Run it"]

def test_5_bold_label_space_before_colon():
    lab = parse_labeled("**Summary** : short\n**Verdict**: yes")
    assert [s.label for s in lab.sections] == ["Summary", "Verdict"] and lab.section("summary") == "short"

def test_6_string_checkers_skip_fenced_code():
    code = "Use this:\n```yaml\nitems:\n- c\n- d\nexpr: a*b*c and b[key]\n```\n"
    assert _run("string.bullet_list", code + "- a\n- b", n=2)
    assert not _run("string.highlight_section", code + "*one*", n=2)
    assert not _run("string.placeholder", code + "[NAME]", n=2)

def test_7_postscript_must_start_a_line():
    assert not _run("string.postscript", "Remember that the letters P.S. stand for postscript.", marker="P.S.")
    assert _run("string.postscript", "Body.\n**P.S.** Call me.", marker="P.S.")

def test_8_js_regex_and_mysql_comments():
    assert find_comment("const re = /\\/\\//g;", "javascript") is None
    assert find_comment("SELECT 1; # why", "mysql") == "# why"
    md = "```mysql\nSELECT 1; # why\n```"
    assert not _run("markdown.has_code_block", md, language="sql")

def test_9_contains_is_substring():
    assert not _run("string.not_contains", "Send weekly emails.", words=["email"])
    assert _run("string.contains", "Send weekly emails.", words=["EMAIL"])
