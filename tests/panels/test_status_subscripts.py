"""What a status line shows has no code-like ``X_y`` underscores: the core's refusals name ``T_v``,
``D_j``, ``I_k``, ``r_a`` in plain text (their messages, pinned elsewhere, keep them), and the status
line renders the index as a subscript."""

import re

import numpy as np
import pytest

from explorer.core.dominance import displacement, risk_loss
from explorer.core.mdrr.dependence import cluster_attributes
from explorer.errors import ExplorerError
from explorer.panels.status import StatusLine
from explorer.panels._format import _SUBSCRIPT

#: the core's refusals whose messages carry a one-letter symbol with an ``_`` index
REFUSALS = {
    "T_v below the largest cardinality": lambda: cluster_attributes(np.eye(3), [16, 2, 2], 5, 0.2),
    "T_d above 1": lambda: cluster_attributes(np.eye(3), [2, 2, 2], 5, 1.5),
    "I_k of too few pairs": lambda: risk_loss.overall_information_loss([1.0, 2.0], 1.0),
    "I_k of one attribute": lambda: risk_loss.pairwise_information_loss(np.ones((5, 1)), 1.0),
    "D_j(alpha) with alpha > 1": lambda: risk_loss.risk_curve(np.arange(5.0), [2.0]),
    "I_k(theta) with theta < 1": lambda: risk_loss.loss_curve(np.arange(5.0), np.arange(5.0), [0.5]),
    "r_a and r_b of different lengths": lambda: displacement.relative_displacement([1, 2], [1, 2, 3]),
}


def shown_text(html: str) -> str:
    """The text a reader sees (tags dropped)."""
    return re.sub(r"<[^>]+>", "", html)


@pytest.mark.parametrize("refusal", sorted(REFUSALS))
def test_a_core_refusal_shows_its_indices_as_subscripts(refusal):
    with pytest.raises(ExplorerError) as caught:
        REFUSALS[refusal]()
    message = str(caught.value)
    assert _SUBSCRIPT.search(message), "the refusal no longer names an indexed symbol: drop it from REFUSALS"
    status = StatusLine()
    status.error(message)
    assert status.is_error and status.message == message           # the message itself is unchanged
    assert "<sub>" in status.widget.value
    assert not _SUBSCRIPT.search(shown_text(status.widget.value)), status.widget.value
    status.info(message)
    assert not _SUBSCRIPT.search(shown_text(status.widget.value))


def test_info_in_html_gets_subscripts_outside_tags_only():
    status = StatusLine()
    status.info("<b class='x_y'>T_v</b> = 50, hours_per_week", raw_html=True)
    assert status.widget.value == ("<span class='explorer-info'><b class='x_y'>T<sub>v</sub></b> = 50, "
                                   "hours_per_week</span>")
