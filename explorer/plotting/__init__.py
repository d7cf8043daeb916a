"""Plot functions of a matplotlib Axes: ``plot_x(ax, data, ...)`` returns its artists,
which panels update in place.  No pyplot state is used here."""
