"""Adding a constraint type is one declaration: a throwaway type declared here (and removed again) is picked up
by the sampler, the renderer, the witness, the mutation tests and the catalog, with nothing else edited."""
import numpy as np
import pytest
from ifhier import catalog
from ifhier.specs import INF, need_phrase, phrase_pattern
from ifhier.registry import REGISTRY, ALIASES, Check, Slack, constraint, conflicts_of
from ifhier.bench.difficulty import constraint_slack, prompt_difficulty
from ifhier.text import occurrences
from ifhier.bench.sampler import load_tasks, sample_tree, content_types
from ifhier.bench.render import render_prompt
from ifhier.bench.witness import witness_verdicts, node_ok
from ifhier.bench.mutate import mutation_table
from ifhier.io import data_path

CID = "string.mentions_project"

@pytest.fixture
def new_type():
    @constraint(CID, "content", {"string"}, params={},
                templates=('{alias} must mention the word "ifhier" at least once.', 'Use the word "ifhier" somewhere in {alias}.'),
                conflicts={"string.value_in_set", "string.constrained_response", "string.not_contains"},
                examples=[("Built with ifhier.", {}, True), ("Built with care.", {}, False)],
                description="the word ifhier occurs at least once", slack=Slack(pins="word"),
                witness=lambda spec: need_phrase(spec, "ifhier", (1, INF)),
                mutate=lambda t: (phrase_pattern("ifhier").sub("it", t), "ifhier"))
    def mentions_project(text:str)->Check:
        "Does `text` contain the word `ifhier`?"
        n = occurrences(text, "ifhier")
        return Check(n >= 1, f"'ifhier' occurs {n} times; needed at least once")
    yield REGISTRY[CID]
    REGISTRY.pop(CID)
    for a in [a for a, c in ALIASES.items() if c == CID]: ALIASES.pop(a)

def _first_tree_with(cid, tasks, tries=400):
    for i in range(tries):
        task = tasks[i % len(tasks)]
        tree = sample_tree(task, 0, np.random.default_rng(i), node_ok=node_ok)
        if any(c == cid for c, _ in tree.constraints): return task, tree, i
    raise AssertionError(f"the sampler never drew {cid} in {tries} trees")

def test_a_new_type_is_picked_up_everywhere(new_type):
    assert CID in content_types() and "string.value_in_set" in conflicts_of(CID)
    sl = constraint_slack(CID, {})                                             # its slack is read from its declaration
    assert (sl["relation"], sl["numeric"], sl["exact"], sl["narrow"], sl["pins"]) == ("binary", False, False, False, "word")
    assert new_type.examples and all(new_type.check(t, **p).passed == want for t, p, want in new_type.examples)
    task, tree, seed = _first_tree_with(CID, [t for t in load_tasks(data_path("seed_tasks.jsonl")) if "string" in t["formats"]])
    prompt = render_prompt(tree, task, np.random.default_rng(seed))
    assert prompt_difficulty(tree)["constraints"] == len(tree.constraints) and prompt_difficulty(tree)["depth"] == 0   # and it is measured
    assert '"ifhier"' in prompt                                               # the renderer used its templates
    answer, verdicts = witness_verdicts(tree)
    assert "ifhier" in answer.lower() and all(v.passed for v in verdicts)      # the witness satisfied it
    muts = mutation_table([dict(id="p", depth=0, tree=tree.to_json())])
    row = muts[muts.constraint == CID].iloc[0]
    assert row.killed and row.named                                            # its mutant is caught and named
    df = catalog.catalog_df()
    assert df[df.constraint_id == CID].description.item() == "the word ifhier occurs at least once"

def test_removed_again():
    assert CID not in REGISTRY and CID not in content_types() and len(REGISTRY) == 35
