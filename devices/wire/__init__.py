"""The serial link of ICD 1.3 §1: framing, fields, messages, delivery and supervision, shared by every serial device."""
