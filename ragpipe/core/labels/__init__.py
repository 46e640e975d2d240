"""People in the loop: label files (reading.py), agreement with the metrics (agreement.py,
views.py), per-domain calibration (calibration.py), prediction-powered means (ppi.py),
what to label next (suggest.py) and the labelling page (page.py)."""
