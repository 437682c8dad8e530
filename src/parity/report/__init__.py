"""The report page: one self-contained HTML file of a published run, which a person opens from
the target folder or a CI artifact, with no server and no network (README, "The report page")."""
