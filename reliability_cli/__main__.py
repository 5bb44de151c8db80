"""``python -m reliability_cli``: the same as the ``reliability`` console command."""

from reliability_cli.main import main

raise SystemExit(main())
