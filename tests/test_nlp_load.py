"""Loading the shared spaCy pipeline: numpy's BLAS for its matrices (nlp.use_numpy_matmul), no
import of other packages' spaCy plugins (nlp._load_model)."""

from __future__ import annotations

import subprocess
import sys

import threadpoolctl

from spia_core.nlp import MATMUL_ENV, load_pipeline, use_numpy_matmul


def _ops_of(nlp) -> set[tuple[str, bool | None]]:
    return {
        (type(node.ops).__name__, getattr(node.ops, "use_blis", None))
        for _, component in nlp.pipeline
        if hasattr(getattr(component, "model", None), "walk")
        for node in component.model.walk()
    }


def test_loaded_pipeline_uses_numpy_matmul_and_one_blas_thread():
    pipe = load_pipeline()
    assert not pipe.degraded, "the spaCy model is a product dependency (requirements-model.txt)"
    assert _ops_of(pipe.nlp) == {("NumpyOps", False)}
    blas = [i for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
    assert blas and all(i["num_threads"] == 1 for i in blas if "numpy" in i["filepath"])


TEXT = (
    "Mr Jonas Ekdahl, a retired ferry engineer, moved from Bergen to Leeds in May 2019. "
    "His daughter told the court that she had written to the council twice."
)


def _annotations(nlp) -> list[tuple]:
    doc = nlp(TEXT)
    return [(t.tag_, t.pos_, t.dep_, t.head.i, t.ent_iob_, t.ent_type_) for t in doc]


def test_numpy_matmul_gives_the_annotations_blis_gives():
    from thinc.api import NumpyOps

    nlp = load_pipeline().nlp
    with_numpy = _annotations(nlp)
    nodes = [
        n
        for _, c in nlp.pipeline
        if hasattr(getattr(c, "model", None), "walk")
        for n in c.model.walk()
    ]
    before = [n.ops for n in nodes]
    try:
        for n in nodes:
            n.ops = NumpyOps(use_blis=True)
        with_blis = _annotations(nlp)
    finally:
        for n, ops in zip(nodes, before, strict=True):
            n.ops = ops
    assert with_numpy == with_blis
    assert any(ent for *_, ent in with_numpy) and any(dep for _, _, dep, *_ in with_numpy)


def test_blis_is_kept_when_asked(monkeypatch):
    monkeypatch.setenv(MATMUL_ENV, "blis")
    assert use_numpy_matmul(load_pipeline().nlp) is False


def test_loading_the_model_does_not_import_other_packages_spacy_plugins():
    code = (
        "import sys\n"
        "from spacy import util\n"
        "from spia_core.nlp import load_pipeline\n"
        "assert not load_pipeline().degraded\n"
        "assert util.registry._entry_point_factories.entry_points  # restored\n"
        "print('presidio_analyzer' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
