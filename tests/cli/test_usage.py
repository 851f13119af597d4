"""lumen-cli's usage errors and help (being written)."""
import sys
sys.exit(77)
