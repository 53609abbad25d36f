#!/usr/bin/env bash
# Writes the hostile inputs (`tests/hostile/main.rs`), runs fuda on each under
# /usr/bin/time and prints a Markdown table: exit code, seconds, peak memory, bytes of
# output, and what fuda said (its first error message, else its first line).
# Usage: measure.sh [OUT_DIR] (default: a new temporary folder). Needs 350 MB of disk.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$(mktemp -d)}
cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p fuda-cli -p fuda-tests --bins
"$root/target/release/hostile" "$out"
fuda="$root/target/release/fuda"
echo "| input | command | exit | seconds | peak MB | output bytes | what fuda said |"
echo "|---|---|---|---|---|---|---|"
while IFS=$'\t' read -r name stdin setup args about; do
  cd "$out/$name"
  [ "$setup" = - ] || eval "$setup"
  input=/dev/null
  [ "$stdin" = - ] || input=$stdin
  # A hang is what this measures against: stop a case after 120 s and say so.
  set +e
  # shellcheck disable=SC2086 # the arguments are words without spaces
  /usr/bin/time -f '%e %M' -o time.txt env NO_COLOR=1 timeout 120 "$fuda" $args \
    < "$input" > stdout.txt 2> stderr.txt
  code=$?
  set -e
  read -r secs kb < <(tail -n 1 time.txt)
  bytes=$(( $(wc -c < stdout.txt) + $(wc -c < stderr.txt) ))
  said=$(awk '/^ +x /{print; exit}' stderr.txt stdout.txt)
  [ -n "$said" ] || said=$(awk 'NF{print; exit}' stdout.txt stderr.txt)
  first=$(printf '%s' "$said" | sed -E 's/^ +x //' | cut -c 1-110 | tr -d '|`')
  [ "$code" = 124 ] && first="(stopped after 120 s)"
  printf '| %s | `fuda %s` | %s | %s | %d | %s | %s |\n' \
    "$about" "$args" "$code" "$secs" $(( kb / 1024 )) "$bytes" "$first"
done < "$out/cases.tsv"
