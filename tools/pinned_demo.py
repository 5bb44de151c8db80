"""Run the demo with the method hash pinned to another tree's (argv[1]), so seeded
choices that follow the method version draw the same as in that tree."""
import sys
import reliability_core.version as v
pinned = sys.argv.pop(1)
v.tree_hash = lambda root, trees=(): pinned
v.method_version.cache_clear()
from reliability_dagster.demo import main
raise SystemExit(main(sys.argv[1:]))
