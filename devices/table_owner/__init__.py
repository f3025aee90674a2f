"""The owner of a running table: the one door every input goes through, and the devices kept in step with it."""
