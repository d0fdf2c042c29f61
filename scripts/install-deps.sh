#!/usr/bin/env bash
# Installs every build, test and plotting dependency of banditfs from Debian's apt, idempotently:
# on a machine that already has them all it does nothing (not even `apt-get update`).
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config
  libeigen3-dev libhdf5-dev hdf5-tools
  libxgboost-dev xgboost libsvm-dev
  libtomlplusplus-dev libcli11-dev libspdlog-dev nlohmann-json3-dev libnanoflann-dev
  libboost-dev libboost-test-dev
  openmpi-bin libopenmpi-dev libboost-mpi-dev
  slurm-wlm munge
  python3-h5py python3-matplotlib python3-numpy python3-pandas python3-sklearn python3-pil
  python3-dev pybind11-dev python3-pybind11
  chromium fonts-dejavu-core
  r-base-core r-cran-mlbench r-cran-modeldata r-cran-palmerpenguins r-cran-mass
  clang-format clang libclang-rt-14-dev
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
