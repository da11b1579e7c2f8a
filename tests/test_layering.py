"""The package's rooms are layered as the README's rooms table says: a module imports only from rooms above it in
that table (and, inside one room, from notebooks with a lower number), so a newcomer can read `ifhier/` top to
bottom. Imports are read from the source, at the top or inside a function, relative or absolute, and
`importlib.import_module("…")` / `__import__("…")` strings count as imports too."""
import ast, importlib, re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "ifhier"

def _nb_order(src:str)->float:
    "The order of the notebook a module was exported from (`File to edit: ../nbs/bench/33_build.ipynb` → 33; `32b` → 32.02)."
    m = re.search(r"File to edit: .*?/(\d+)([a-z]?)_[^/]*\.ipynb", src[:600])
    assert m, "names no notebook"
    return int(m.group(1)) + (ord(m.group(2)) - 96) / 100 if m.group(2) else int(m.group(1))

def _modules()->dict:
    "{dotted name: path} of every generated module (the `__init__` faces and `_modidx` excepted)."
    return {".".join(py.relative_to(ROOT).with_suffix("").parts): py for py in PKG.rglob("*.py")
            if py.name not in ("__init__.py", "_modidx.py")}

def _literal(node)->str|None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

def _dynamic(node:ast.Call)->str|None:
    "The module a call `importlib.import_module('m')`, `import_module('m')` or `__import__('m')` names, if a literal."
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    return _literal(node.args[0]) if name in ("import_module", "__import__") and node.args else None

def imports(src:str, name:str)->set:
    "Every ifhier module the source `src` of module `name` imports: statements and literal dynamic imports."
    pkg, out = name.rsplit(".", 1)[0].split("."), set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.ImportFrom):
            base = pkg[:len(pkg) - node.level + 1] if node.level else []
            mod = ".".join(base + (node.module.split(".") if node.module else []))
            out |= {mod} | {f"{mod}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import): out |= {a.name for a in node.names}
        elif isinstance(node, ast.Call) and (m := _dynamic(node)): out.add(m)
    return {m for m in out if m.startswith("ifhier.")}

def rooms(readme:str, mods:dict)->dict:
    "{module: row index} from the README's rooms table (`| notebooks | modules | what |`): the order of the rooms."
    table = readme.split("| notebooks | modules | what |")[1].split("\n\n")[0]
    out = {}
    for i, row in enumerate(l for l in table.strip().splitlines()[1:] if l.startswith("|")):
        prefix = "ifhier"
        for tok in re.findall(r"`([^`]+)`", row.split("|")[2]):
            if "/" in tok: continue                                          # files (the __init__ faces), not modules
            full = tok if tok.startswith("ifhier") else "ifhier" + tok
            if full.endswith(".*"): hit = [m for m in mods if m.startswith(full[:-1])]
            elif tok.startswith(".") and tok.count(".") == 1 and f"{prefix}{tok}" in mods: hit = [f"{prefix}{tok}"]
            else: hit = [full] if full in mods else []
            assert hit, f"README rooms table row {i + 1} names {tok!r}, which is no module of the package"
            if tok.count(".") > 1: prefix = full.rsplit(".", 1)[0]
            for m in hit:
                assert m not in out, f"{m} is in two rows of the README rooms table"
                out[m] = i
    return out

def _late(mods:dict, rank:dict, srcs:dict)->list:
    "Every import of a module from a later room (or a later notebook of the same room)."
    key = {m: (rank[m], _nb_order(srcs[m])) for m in mods}
    return [f"{name} {key[name]} imports {m} {key[m]}" for name in mods if name != "ifhier.cli"   # the dispatcher names every handler
            for m in imports(srcs[name], name) if m in mods and m != name and key[m] > key[name]]

def _setup():
    mods = _modules()
    srcs = {m: p.read_text(encoding="utf-8") for m, p in mods.items()}
    return mods, srcs, rooms((ROOT / "README.md").read_text(encoding="utf-8"), mods)

def test_readme_rooms_table_names_every_module_once():
    mods, _, rank = _setup()
    assert len(mods) > 40
    assert sorted(set(mods) - set(rank)) == [], "modules missing from the README's rooms table"

def test_no_module_imports_from_a_later_room():
    mods, srcs, rank = _setup()
    late = _late(mods, rank, srcs)
    assert late == [], "\n".join(late)

def test_an_importlib_upward_import_is_caught():
    "A synthetic `ifhier.text` that reaches the report room through importlib (or __import__) fails the layering check."
    mods, srcs, rank = _setup()
    for call in ('importlib.import_module("ifhier.report.score")', '__import__("ifhier.report.score")',
                 'import_module("ifhier.report.score")'):
        fake = dict(srcs, **{"ifhier.text": srcs["ifhier.text"] + f"\n\ndef _sneaky():\n    return {call}\n"})
        assert _late(mods, rank, fake) == [f"ifhier.text (0, 0) imports ifhier.report.score {(rank['ifhier.report.score'], 60)}"], call
    assert imports("import importlib\nm = importlib.import_module(name)\n", "ifhier.x") == set()   # a computed name is not followed

def test_readme_table_errors_are_caught():
    mods = _modules()
    ok = "| notebooks | modules | what |\n|---|---|---|\n| `00_text` | `ifhier.text`, `.io` | x |\n\n"
    assert rooms(ok, mods) == {"ifhier.text": 0, "ifhier.io": 0}
    for bad, msg in (("`ifhier.txt`", "no module"), ("`ifhier.text`, `.text`", "two rows")):
        try: rooms(ok.replace("`ifhier.text`, `.io`", bad), mods)
        except AssertionError as e: assert msg in str(e), e
        else: raise AssertionError(f"{bad} was accepted")

def test_every_cli_handler_resolves():
    "Each `module:function` handler string in the CLI names a function that exists (imported here, not by `--help`)."
    src = (PKG / "cli.py").read_text(encoding="utf-8")
    specs = {_literal(n) for n in ast.walk(ast.parse(src)) if _literal(n) and re.fullmatch(r"ifhier(\.\w+)+:\w+", _literal(n))}
    assert len(specs) >= 15, specs
    for spec in sorted(specs):
        mod, fn = spec.split(":")
        assert callable(getattr(importlib.import_module(mod), fn, None)), f"CLI handler {spec} does not resolve"

def test_no_top_level_module_carries_a_group_prefix():
    top = [p.stem for p in PKG.glob("*.py") if not p.stem.startswith("_")]
    assert not [t for t in top if re.match(r"(wise|witness|ifeval|bench|run|report|reward)_", t)], top
