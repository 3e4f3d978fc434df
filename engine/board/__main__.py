"""``python -m engine.board``: rewrite the checked-in topology tables from the graph."""

import sys

from engine.board.topology import TABLES_FILE, write_tables

write_tables()
print(f"wrote {TABLES_FILE}", file=sys.stderr)
