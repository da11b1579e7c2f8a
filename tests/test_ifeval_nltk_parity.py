"""ifhier.text's sentence and word tokens equal nltk's own `sent_tokenize` / `word_tokenize` loading
`punkt_tab/english` through nltk's data path (written to a tempdir from the `punkt` wheel: no download)."""
import string
import pytest
from hypothesis import given, settings, strategies as st
from ifhier.text import split_sentences, word_tokens

@pytest.fixture(scope="module")
def nltk_english(tmp_path_factory):
    import nltk
    from punkt.data import english as m
    root = tmp_path_factory.mktemp("nltk_data")
    d = root / "tokenizers" / "punkt_tab" / "english"
    d.mkdir(parents=True)
    (d / "abbrev_types.txt").write_text("\n".join(sorted(m.ABBREV_TYPES)))
    (d / "sent_starters.txt").write_text("\n".join(sorted(m.SENT_STARTERS)))
    (d / "collocations.tab").write_text("\n".join("\t".join(c) for c in sorted(m.COLLOCATIONS)))
    (d / "ortho_context.tab").write_text("\n".join(f"{k}\t{v}" for k, v in sorted(m.ORTHO_CONTEXT.items())))
    nltk.data.path.insert(0, str(root))
    from nltk.tokenize import _get_punkt_tokenizer
    _get_punkt_tokenizer.cache_clear()
    yield nltk
    nltk.data.path.remove(str(root))
    _get_punkt_tokenizer.cache_clear()

CASES = ["Mr. Smith went. Dr. Who came.", "It is 5 p.m. Then we go.", "What?!", "Hi!! There??", "!!!",
         "1. First item\n2. Second item\n3. Third", 'He said "Stop." Then left.', "e.g. I.E. OK.",
         "I DON'T like NASA's (HD-TV) plans.", "**BOLD** TEXT", "WANNA go?", "A. B. C.", "U.S.A. is big. Yes."]

def test_examples_match_nltk(nltk_english):
    for t in CASES:
        assert split_sentences(t) == nltk_english.sent_tokenize(t), t
        assert word_tokens(t) == nltk_english.word_tokenize(t), t

@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=string.ascii_letters[:6] + "ABMrDs" + "  \n.!?\"'()*-:;,0123", max_size=80))
def test_random_text_matches_nltk(nltk_english, text):
    assert split_sentences(text) == nltk_english.sent_tokenize(text)
    assert word_tokens(text) == nltk_english.word_tokenize(text)

def test_real_text_matches_nltk(nltk_english):
    "Real prose: every seed task, context and WISE item the project ships splits exactly as nltk splits it."
    import json
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    texts = []
    for line in (root / "ifhier/data/seed_tasks.jsonl").read_text(encoding="utf-8").splitlines():
        t = json.loads(line); texts += [t["task"]] + ([t["context"]] if t["context"] else [])
    for line in (root / "ifhier/data/wise/items.jsonl").read_text(encoding="utf-8").splitlines():
        texts.append(json.loads(line)["task"])
    for line in (root / "ifhier/data/ifhierbench.jsonl").read_text(encoding="utf-8").splitlines():
        texts.append(json.loads(line)["prompt"])   # rendered prompts: quotes, lists of keys, numbers
    assert len(texts) > 1000
    n_sent = 0
    for t in texts:
        got = split_sentences(t); n_sent += len(got)
        assert got == nltk_english.sent_tokenize(t), t
        assert word_tokens(t) == nltk_english.word_tokenize(t), t
    assert n_sent > 3000   # multi-sentence passages and prompts, so the splitter really ran
