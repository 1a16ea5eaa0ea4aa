"""The opt-in ONNX path: exported once from the shipped weights (no download), the same
vectors as the torch path, and reused (never exported again) by the next process."""

from __future__ import annotations

import numpy as np
import pytest

TEXTS = [
    "A bond of $5,000 is required for a street opening permit.",
    "Snow shall be removed from the sidewalk within 24 hours after it stops falling.",
    "No person shall excavate in any public right-of-way without a permit issued by the Director of Public "
    "Works, who may require notice to the utilities forty-eight hours before work begins. " * 6,
    "Fences.",
]


@pytest.mark.timeout(300)
def test_onnx_vectors_equal_the_torch_vectors_and_the_export_is_reused(tmp_path, monkeypatch):
    import assistant.retrieval.onnx_embedder as onnx_module
    from assistant.retrieval.embeddings import Embedder

    onnx = onnx_module.OnnxEmbedder(cache_dir=tmp_path)
    got = np.asarray(onnx.embed_documents(TEXTS), dtype=np.float32)
    want = np.asarray(Embedder().embed_documents(TEXTS), dtype=np.float32)
    assert got.shape == want.shape == (len(TEXTS), 384)
    assert float((got * want).sum(axis=1).min()) > 0.9999  # the long text is cut at the same 256 tokens
    q = np.asarray(onnx.embed_query(TEXTS[1]))
    assert float(q @ want[1]) > 0.9999 and onnx.fingerprint == Embedder().fingerprint
    assert onnx.onnx_path.exists() and onnx.onnx_path.parent == tmp_path
    monkeypatch.setattr(onnx_module, "export_onnx", lambda *a: pytest.fail("exported again"))
    again = onnx_module.OnnxEmbedder(cache_dir=tmp_path)
    assert np.allclose(np.asarray(again.embed_documents(TEXTS[:2])), got[:2], atol=1e-5)
    assert again.embed_documents([]) == []


def test_the_backend_setting_is_checked(monkeypatch):
    from assistant.settings import Settings

    assert Settings().embedding_backend == "torch"
    with pytest.raises(Exception, match="embedding_backend"):
        Settings(embedding_backend="openvino")
