"""WMT: XML test beds, metrics-task score files, the WMT20 release layout, MQM assessments."""
