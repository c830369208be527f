"""Meio: trick-taking with a split hand."""
