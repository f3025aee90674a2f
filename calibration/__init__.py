"""Camera calibration: layout files, marker detection, homography and zones."""
