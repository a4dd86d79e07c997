"""Building blocks with no concern of their own, below every other part of psan.tool: the plugin registry."""
