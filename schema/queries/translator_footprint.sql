-- What deleting translator $1 (an id) takes with it, for `ulcdb delete system|reference` to
-- say before it asks: its scores (its own and those against reference sets holding it) and
-- its human assessments.
select (select count(*)
        from stored_scores
        where translator_id = $1
           or refset_id in (select refset_id from refset_member where translator_id = $1)
       ) as scores,
       (select count(*) from assessment where translator_id = $1) as assessments
