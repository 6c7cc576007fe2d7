"""Readers and writers of the field's file formats, one module (or package) per format: test
beds, human assessments and metric scores."""
