"""Decisions: automatic rules and their matching, the vote of rules and people, precedence, sensitivity,
suggestions, annotation windows, agreement, and the private regions that decide the output."""
