"""QARLA (IQMT manual section 3): QUEEN, KING, ORANGE and JACK over the stored scores."""
