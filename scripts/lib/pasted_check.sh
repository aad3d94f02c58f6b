# Compiles every compiled block of README.md and the catalogs as a reader pastes it (scripts/lib/pasted_blocks.py):
# a file of its own with only the imports it shows, type-checked against the debug build's modules. Sourced by
# scripts/examples after `swift build`; $1 is the build's bin folder, $2 a scratch folder.
pasted_check() {
  local bin=$1 scratch=$2 block page givens failed=0
  local -a flags=(-swift-version 6 -I "$bin/Modules")
  local map
  # Errand's modules name the C libraries' module maps; the block itself imports none of them.
  for map in Sources/C*/module.modulemap; do
    flags+=(-Xcc "-fmodule-map-file=$PWD/$map" -Xcc "-I$PWD/$(dirname "$map")")
  done
  "$SERVERS_PY" scripts/lib/pasted_blocks.py "$scratch/blocks" README.md Sources/*/*.docc/*.md >/dev/null
  mkdir -p "$scratch/givens"
  for block in "$scratch"/blocks/*; do
    local -a implicit=()
    if [[ -f $block/givens ]]; then
      givens=$(<"$block/givens")
      page=$(basename "$givens" .swift)
      if [[ ! -f $scratch/givens/$page/PastedGivens.swiftmodule ]]; then
        mkdir -p "$scratch/givens/$page"
        swiftc -emit-module -parse-as-library -module-name PastedGivens "${flags[@]}" "$givens" \
          -emit-module-path "$scratch/givens/$page/PastedGivens.swiftmodule" ||
          { echo "examples: $givens does not compile" >&2; return 1; }
      fi
      implicit=(-I "$scratch/givens/$page" -Xfrontend -import-module -Xfrontend PastedGivens)
    fi
    if ! swiftc -typecheck "${flags[@]}" "${implicit[@]}" "$block/main.swift" 2>"$block/errors"; then
      echo "examples: $(<"$block/where"): the block does not compile as pasted:" >&2
      grep -E '^[^ ].*error:' "$block/errors" | sed "s|$block/main.swift|  line|" >&2
      failed=1
    fi
  done
  return $failed
}
