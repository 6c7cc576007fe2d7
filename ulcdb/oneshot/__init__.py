"""`ulcdb eval`: score plain files at once, as sacrebleu is used, in a store kept in memory
(or saved with ``--save``): read the files (:mod:`.inputs`), score and test them with the
library every other command uses (:mod:`.run`), print what sacrebleu prints (:mod:`.render`).
"""
