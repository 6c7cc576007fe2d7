"""DR and DR_doc, the discourse representation metrics (ULC manual 4.6.1; Giménez et al. 2010).

``drs`` the flat DRS both sources produce; ``boxer`` reads Boxer's flat XML; ``builder`` is
ulcdb's own DRS builder over the stored annotation; ``scoring`` is Asiya 3.0's DR scoring;
``family`` the DR and DRdoc metric families.
"""
