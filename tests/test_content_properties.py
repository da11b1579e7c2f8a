"""Property tests for the 25 content-level constraint types (ifhier.checkers.*): no checker raises on
arbitrary text, and the relations between types that the declarations promise hold on every text."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from ifhier.registry import REGISTRY, Check, get_type
from ifhier.checkers import keywords, length, format, case, combination  # noqa: F401 (registers the types)
from ifhier.text import count_words

CONTENT = sorted(c for c, ct in REGISTRY.items() if ct.level == "content")
POOL = ["tuition", "open enrollment", "accreditation", "transfer", "credits", "campus"]
# text made of the characters the checkers care about: markup, separators, quotes, odd whitespace, emoji
ALPHABET = st.sampled_from(list("aAbBzZ iI.,!?*-_#[]<>\"'\n\r\t") + ["\u00a0", "\u201c", "\u201d", "\U0001F600",
                                                                     "P.S.", "Section 1", "******", "tuition", "É", "ß"])
TEXTS = st.lists(ALPHABET, max_size=60).map("".join) | st.text(max_size=200)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

def _draw(ct, seed):
    rng = np.random.default_rng(seed)
    while True:
        kw = {k: p.sample(rng, dict(pool=POOL)) for k, p in ct.params.items()}
        if ct.hooks.get("feasible", lambda p: True)(kw): return kw

def test_twenty_five_content_types():
    assert len(CONTENT) == 25 and all(REGISTRY[c].scopes == {"string"} for c in CONTENT)

@pytest.mark.parametrize("cid", CONTENT)
@SETTINGS
@given(text=TEXTS, seed=st.integers(0, 2**16))
def test_checker_never_raises(cid, text, seed):
    ct = REGISTRY[cid]
    got = ct.check(text, **_draw(ct, seed))     # the bare checker, not the exception-catching wrapper
    assert isinstance(got, Check) and isinstance(got.passed, bool) and got.reason

@SETTINGS
@given(text=TEXTS, word=st.sampled_from(POOL))
def test_contains_and_not_contains_are_opposites(text, word):
    assert get_type("string.contains")(text, words=[word]).passed != get_type("string.not_contains")(text, words=[word]).passed

@SETTINGS
@given(text=TEXTS)
def test_upper_and_lower_case_exclude_each_other(text):
    assert not (get_type("string.capital_letters")(text).passed and get_type("string.lowercase_letters")(text).passed)

@SETTINGS
@given(text=TEXTS)
def test_num_words_exactly_its_own_count(text):
    n = count_words(text)
    nw = get_type("string.num_words")
    if 5 <= n <= 300:
        assert nw(text, rel="exactly", n=n).passed and not nw(text, rel="more than", n=n).passed

@SETTINGS
@given(a=st.text(min_size=1, max_size=40).filter(lambda s: s.strip() and "*" not in s),
       b=st.text(min_size=1, max_size=40).filter(lambda s: s.strip() and "*" not in s))
def test_two_responses_joined(a, b):
    got = get_type("string.two_responses")(f"{a}\n******\n{b}").passed
    assert got == (keywords.squash(a).casefold() != keywords.squash(b).casefold())

@SETTINGS
@given(prompt=st.text(min_size=1, max_size=60).filter(str.strip), answer=st.text(min_size=1, max_size=60).filter(str.strip))
def test_repeat_prompt_then_answer(prompt, answer):
    rp = get_type("string.repeat_prompt")
    assert rp(f"{prompt}\n\n{answer}", prompt_text=prompt).passed
    assert not rp(answer, prompt_text=prompt + " " + answer + " x").passed

@SETTINGS
@given(text=TEXTS)
def test_constrained_response_accepts_its_values(text):
    value = keywords.squash(text)
    if value and len(value) <= 200 and value.rstrip(".") == value:
        vs = [value, value + " x"]
        assert get_type("string.constrained_response")(f"  {text}\n", values=vs).passed
        assert get_type("string.constrained_response")(f"{value}.", values=vs).passed
        assert get_type("string.value_in_set")(f"  {text}\n", values=vs).passed

def test_string_length_bounds():
    sl = get_type("string.string_length")
    assert [sl("x" * k, min_chars=10, max_chars=12).passed for k in (9, 10, 12, 13)] == [False, True, True, False]
