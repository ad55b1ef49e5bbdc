"""Development tools for the board set (not used at run time)."""
