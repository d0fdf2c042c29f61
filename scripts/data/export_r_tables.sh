#!/usr/bin/env bash
# Exports the real tables with missing values and categorical columns (airquality, palmerpenguins' penguins,
# MASS's survey and Cars93) as CSVs: scripts/data/export_r_tables.R says what each file holds and why.
#
#   bash scripts/data/export_r_tables.sh [OUT_DIR]      # default results/data/real
#
# It installs nothing: it needs the Debian packages r-base-core, r-cran-palmerpenguins and r-cran-mass
# (scripts/install-deps.sh installs them) and names the missing ones otherwise.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-results/data/real}

missing=()
for pkg in r-base-core r-cran-palmerpenguins r-cran-mass; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "export_r_tables: missing Debian packages: ${missing[*]} (apt-get install ${missing[*]}, or bash scripts/install-deps.sh)" >&2
  exit 1
fi
exec Rscript "$ROOT/scripts/data/export_r_tables.R" "$OUT"
