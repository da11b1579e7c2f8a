"""The package's face: the import paths a user would guess work from a fresh interpreter, `import ifhier` stays light,
the registry fills itself on first lookup, and a misspelt hook is refused when a type is declared."""
import subprocess, sys
import pytest

def _fresh(code:str)->str:
    "stdout of `code` run in a new interpreter (nothing imported beforehand)."
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout

TREE = ("{'kind': 'json', 'via': None, 'constraints': [{'id': 'json.has_keys', 'params': {'keys': ['a']}}], "
        "'children': [{'kind': 'string', 'via': {'key': 'a'}, 'constraints': [{'id': 'string.num_words', "
        "'params': {'rel': 'at most', 'n': 3}}], 'children': []}]}")

def test_from_json_works_with_no_other_import():
    out = _fresh(f"from ifhier.tree import ConstraintNode; t = ConstraintNode.from_json({TREE}); print(t.children[0].constraints)")
    assert out == "[('string.num_words', {'rel': 'at most', 'n': 3})]\n"

def test_registry_loads_on_first_lookup_only():
    out = _fresh("import sys; from ifhier.registry import REGISTRY, get_type; "
                 "a = 'ifhier.checkers.format' in sys.modules; n = len(REGISTRY); "
                 "print(a, n, 'ifhier.checkers.format' in sys.modules, get_type('length_constraints:number_words').id)")
    assert out == "False 35 True string.num_words\n"          # aliases resolve on the first lookup too

def test_the_guessable_imports():
    out = _fresh("from ifhier.reward import reward, reward_batch; from ifhier.widgets import TreeStepper; "
                 "from ifhier import check, build_benchmark, PROFILES, ConstraintNode; "
                 f"print(reward({{'tree': {TREE}}}, 'Sure: {{\"a\": \"two words\"}}', profile='loose'), "
                 f"reward({{'tree': {TREE}}}, 'Sure: {{\"a\": \"two words\"}}'), PROFILES, check.__module__)")
    assert out == "1.0 0.0 ('strict', 'loose') ifhier.verdicts\n"

def test_import_ifhier_is_light():
    heavy = ("pandas", "numpy", "scipy", "nltk", "litellm", "ipywidgets", "ifhier.registry", "ifhier.verdicts")
    assert _fresh(f"import sys, ifhier; print(sorted(m for m in {heavy!r} if m in sys.modules))") == "[]\n"

def test_unknown_names_are_attribute_errors():
    import ifhier, ifhier.reward
    with pytest.raises(AttributeError, match="module 'ifhier' has no attribute 'chek'"): ifhier.chek
    with pytest.raises(AttributeError, match="module 'ifhier.reward' has no attribute 'verify_all'"): ifhier.reward.verify_all
    assert "check" in dir(ifhier) and "reward_batch" in dir(ifhier.reward)

def test_misspelt_hook_is_refused_at_declaration():
    from ifhier.registry import constraint, REGISTRY
    with pytest.raises(ValueError, match=r"demo\.typo: unknown hook 'root_onyl'; did you mean 'root_only'\?"):
        constraint("demo.typo", "content", {"string"}, templates=("a", "b"), root_onyl=True)
    with pytest.raises(ValueError, match="unknown hook 'colour'"):
        constraint("demo.typo", "content", {"string"}, templates=("a", "b"), colour="red")(lambda text: None)
    assert "demo.typo" not in REGISTRY

def test_one_profile_vocabulary():
    from ifhier import PROFILES, check_profile
    from ifhier.io import InputError
    from ifhier.reward import reward
    from ifhier.explain import explain_text
    assert PROFILES == ("strict", "loose") and check_profile("loose") == "loose"
    rec = {"id": "x", "tree": eval(TREE), "prompt": ""}
    for call in (lambda: check_profile("lenient"), lambda: reward(rec, "x", profile="lenient"),
                 lambda: explain_text(rec, "x", profile="lenient")):
        with pytest.raises(InputError, match="unknown profile 'lenient'; expected one of strict, loose"): call()
