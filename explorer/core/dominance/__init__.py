"""Power-mean measures of disclosure risk and information loss, and dominance (Ruiz (2018)).

Rank displacements r_j and T_j (Ruiz (2018), Section 3, Prop. 2), power means, D_j(alpha)
(Prop. 3), I_k(theta) (Prop. 5), their aggregates (Props. 6-7), dominance (Defs. 2 and 4), comparing
and calibrating masking methods.

Each concept lives in one module; every public name below is also importable from this package
(imported on first use, so importing one module does not import the others):

:mod:`explorer.core.dominance.displacement`
    rank displacements r_j and the permutation extent T_j.
:mod:`explorer.core.dominance.means`
    power means for every exponent.
:mod:`explorer.core.dominance.risk_loss`
    D_j(alpha), I_k(theta), their aggregates and curves.
:mod:`explorer.core.dominance.relation`
    dominance in disclosure risk and in information (Defs. 2 and 4).
:mod:`explorer.core.dominance.comparison`
    masking configurations compared by dominance.
:mod:`explorer.core.dominance.calibration`
    calibrating a masking method for a controller's aversions.
"""

from __future__ import annotations

from explorer.core._exports import lazy_exports

#: Where each public name of this package lives.
WHERE = {
    'ZERO_DISPLACEMENT': 'explorer.core.dominance.relation',
    'power_mean': 'explorer.core.dominance.relation',
    'power_means': 'explorer.core.dominance.relation',
    'permutation_extent': 'explorer.core.dominance.relation',
    'displacements_from_matrix': 'explorer.core.dominance.relation',
    'relative_displacement': 'explorer.core.dominance.relation',
    'disclosure_risk': 'explorer.core.dominance.relation',
    'td': 'explorer.core.dominance.relation',
    'information_loss': 'explorer.core.dominance.relation',
    'overall_disclosure_risk': 'explorer.core.dominance.relation',
    'overall_information_loss': 'explorer.core.dominance.relation',
    'pairwise_information_loss': 'explorer.core.dominance.relation',
    'attribute_pairs': 'explorer.core.dominance.relation',
    'Curve': 'explorer.core.dominance.relation',
    'Tally': 'explorer.core.dominance.relation',
    'tally': 'explorer.core.dominance.relation',
    'tally_differences': 'explorer.core.dominance.relation',
    'risk_curve': 'explorer.core.dominance.relation',
    'loss_curve': 'explorer.core.dominance.relation',
    'overall_risk_curve': 'explorer.core.dominance.relation',
    'overall_loss_curve': 'explorer.core.dominance.relation',
    'alpha_grid': 'explorer.core.dominance.relation',
    'theta_grid': 'explorer.core.dominance.relation',
    'Segment': 'explorer.core.dominance.relation',
    'DominanceResult': 'explorer.core.dominance.relation',
    'dominance': 'explorer.core.dominance.relation',
    'CalibrationPoint': 'explorer.core.dominance.calibration',
    'calibration_point': 'explorer.core.dominance.calibration',
    'best_calibration': 'explorer.core.dominance.calibration',
    'DISPLACEMENT_CONVENTIONS': 'explorer.core.dominance.relation',
    'displacement_matrix': 'explorer.core.dominance.relation',
    'masked_displacements': 'explorer.core.dominance.relation',
    'calibration_path': 'explorer.core.dominance.calibration',
    'sample_records': 'explorer.core.dominance.calibration',
    'curves_table': 'explorer.core.dominance.relation',
    'rank_displacement': 'explorer.core.dominance.displacement',
    'PUBLISHED': 'explorer.core.dominance.comparison',
    'MaskingConfig': 'explorer.core.dominance.comparison',
    'ComparisonCache': 'explorer.core.dominance.comparison',
    'MaskingComparison': 'explorer.core.dominance.comparison',
    'compare_maskings': 'explorer.core.dominance.comparison',
    'comparison_work': 'explorer.core.dominance.comparison',
    'comparison_seconds': 'explorer.core.dominance.comparison',
    'config_label': 'explorer.core.dominance.comparison',
    'numeric_records': 'explorer.core.dominance.comparison',
}

__all__ = [
    'ZERO_DISPLACEMENT',
    'power_mean',
    'power_means',
    'permutation_extent',
    'displacements_from_matrix',
    'relative_displacement',
    'disclosure_risk',
    'td',
    'information_loss',
    'overall_disclosure_risk',
    'overall_information_loss',
    'pairwise_information_loss',
    'attribute_pairs',
    'Curve',
    'Tally',
    'tally',
    'tally_differences',
    'risk_curve',
    'loss_curve',
    'overall_risk_curve',
    'overall_loss_curve',
    'alpha_grid',
    'theta_grid',
    'Segment',
    'DominanceResult',
    'dominance',
    'CalibrationPoint',
    'calibration_point',
    'best_calibration',
    'DISPLACEMENT_CONVENTIONS',
    'displacement_matrix',
    'masked_displacements',
    'calibration_path',
    'sample_records',
    'curves_table',
    'rank_displacement',
    'PUBLISHED',
    'MaskingConfig',
    'ComparisonCache',
    'MaskingComparison',
    'compare_maskings',
    'comparison_work',
    'comparison_seconds',
    'config_label',
    'numeric_records',
]

__getattr__, __dir__ = lazy_exports(__name__, WHERE)
