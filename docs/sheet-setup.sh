# Sourced by the contact-sheet scripts (docs/make-*-sheet.sh): strict mode; SEGUE, the binary (the script's first
# argument, default .build/debug/segue); ROOT, the checkout; a temporary folder, removed on exit, as the working folder.
set -euo pipefail
cd "$(dirname "$0")/.."
SEGUE=$(realpath "${1:-.build/debug/segue}")
ROOT=$PWD
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
