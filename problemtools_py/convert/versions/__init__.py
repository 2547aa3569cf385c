"""``upgradeproblem`` and the way back: a package moved between format versions (upgrade:
the plan of a 2025-09 tree; upgrade_config, upgrade_data: its files rewritten;
upgrade_write: the plan carried out; upgrading: the command's work per package) and down
to legacy for tools that read only legacy (downgrade and its parts; problem2zip uses it)."""
