"""`python -m smallworld.boards validate|list|render ...`"""

from smallworld.boards.cli import main

raise SystemExit(main())
