"""The same all-MiniLM-L6-v2 weights run by ONNX Runtime (opt-in: ``ASSISTANT_EMBEDDING_BACKEND=onnx``).

sentence-transformers' own ONNX and OpenVINO backends need ``optimum-onnx`` /
``optimum-intel``, which pin transformers below the version this project runs (they would
downgrade it; optimum-intel also pulls a CUDA torch build), so this module exports the
shipped weights itself with ``torch.onnx`` (once, into the data folder, keyed by a hash
of the weights; nothing is downloaded) and runs the graph with ONNX Runtime: the model's
own word-piece tokenizer, its 256-token window, mean pooling over the attention mask and
L2 normalisation, as the model's sentence-transformers configuration says. The vectors
equal the torch path's (least cosine 0.99999+ on the chapters' chunks), so the index
fingerprint is the same and switching back and forth re-embeds nothing.

Speed, measured on the shared 2-core machine with interleaved runs of the same texts:
from 0.7x to 2.2x the torch path's passages/s (torch 2.13 on CPU with length-sorted
batches is already well optimised for a 6-layer model; the spread is the machine's load).
int8 dynamic quantization was faster in some runs but moves the vectors (cosine to the
torch vectors 0.94 at least, 0.96 on average): not offered.
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path

import numpy as np

from assistant.retrieval.embeddings import DOC_BATCH, MAX_TOKENS, Embedder

OPSET = 17
INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def weights_hash(model_dir: Path) -> str:
    h = hashlib.sha256()
    for name in ("model.safetensors", "config.json", "modules.json"):
        f = model_dir / name
        if f.exists():
            h.update(name.encode())
            h.update(str(f.stat().st_size).encode())
            with f.open("rb") as fh:  # the first and last MB: a changed weight file changes them
                h.update(fh.read(1 << 20))
                fh.seek(max(0, f.stat().st_size - (1 << 20)))
                h.update(fh.read())
    return h.hexdigest()[:16]


def export_onnx(model_dir: Path, out: Path) -> Path:
    """Export the transformer of the sentence-transformers model in ``model_dir`` to ``out``
    (written beside, then renamed: a half-written file is never read)."""
    import torch
    from sentence_transformers import SentenceTransformer

    st = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)
    bert = st[0].auto_model.eval()

    class _Hidden(torch.nn.Module):  # keyword arguments: the forward signature differs across transformers
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.m(input_ids=input_ids, attention_mask=attention_mask,
                          token_type_ids=token_type_ids).last_hidden_state

    sample = st.tokenizer(["a sample", "a longer sample sentence"], padding=True, return_tensors="pt")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".part")
    dyn = {n: {0: "batch", 1: "tokens"} for n in (*INPUTS, "last_hidden_state")}
    with torch.no_grad():
        torch.onnx.export(_Hidden(bert), tuple(sample[n] for n in INPUTS), str(tmp), input_names=list(INPUTS),
                          output_names=["last_hidden_state"], dynamic_axes=dyn, opset_version=OPSET, dynamo=False)
    tmp.replace(out)
    return out


class OnnxEmbedder(Embedder):
    """``Embedder`` with the forward pass in ONNX Runtime (``model`` stays the torch model,
    loaded only if something asks for it: the export, or a comparison)."""

    def __init__(self, model_dir: Path | None = None, cache_dir: Path | None = None, threads: int = 0):
        super().__init__(model_dir)
        if cache_dir is None:
            from assistant.settings import get_settings

            cache_dir = Path(get_settings().data_dir) / "models"
        self.onnx_path = Path(cache_dir) / f"{self.model_dir.name}-{weights_hash(self.model_dir)}.onnx"
        self.threads = threads
        self._session = None
        self._tok = None
        self._session_lock = threading.Lock()

    def _load(self):
        if self._session is None:
            with self._session_lock:
                if self._session is None:
                    import onnxruntime as ort
                    from filelock import FileLock
                    from tokenizers import Tokenizer

                    with FileLock(str(self.onnx_path) + ".lock"):
                        if not self.onnx_path.exists():
                            export_onnx(self.model_dir, self.onnx_path)
                    opts = ort.SessionOptions()
                    if self.threads:
                        opts.intra_op_num_threads = self.threads
                    tok = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
                    tok.enable_truncation(_max_tokens(self.model_dir))
                    tok.enable_padding()
                    self._tok = tok
                    self._session = ort.InferenceSession(str(self.onnx_path), opts,
                                                         providers=["CPUExecutionProvider"])
        return self._session, self._tok

    def _encode(self, texts: list[str], batch: int) -> np.ndarray:
        session, tok = self._load()
        out = np.zeros((len(texts), 0), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))  # batches pad to their own longest
        rows: dict[int, np.ndarray] = {}
        for i in range(0, len(order), batch):
            idx = order[i:i + batch]
            enc = tok.encode_batch([texts[j] for j in idx])
            ids = np.asarray([e.ids for e in enc], dtype=np.int64)
            mask = np.asarray([e.attention_mask for e in enc], dtype=np.int64)
            hidden = session.run(None, {"input_ids": ids, "attention_mask": mask,
                                        "token_type_ids": np.zeros_like(ids)})[0]
            m = mask[..., None].astype(np.float32)
            vec = (hidden * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)
            vec /= np.maximum(np.linalg.norm(vec, axis=1, keepdims=True), 1e-12)
            for j, v in zip(idx, vec):
                rows[j] = v
        if rows:
            out = np.stack([rows[j] for j in range(len(texts))]).astype(np.float32)
        return out

    def embed_documents(self, texts: list[str], show_progress: bool = False) -> list[list[float]]:
        return [v.tolist() for v in self._encode(texts, DOC_BATCH)]

    def embed_query(self, text: str) -> list[float]:
        hit = self._cache.get(text)
        if hit is not None:
            return hit
        vec = self._encode([text], 1)[0].tolist()
        if len(self._cache) > 2048:
            self._cache.clear()
        self._cache[text] = vec
        return vec


def _max_tokens(model_dir: Path) -> int:
    try:
        return int(json.loads((model_dir / "sentence_bert_config.json").read_text("utf-8"))["max_seq_length"])
    except Exception:  # noqa: BLE001 - the model's documented window
        return MAX_TOKENS
