"""The overhead camera: frames in, the cards seen in each zone out, checked against the shoe (ICD 1.3 §4)."""
