-- How many segments and how many documents the test bed of id $1 has.
select (select count(*) from segment where testbed_id = $1) as segments,
       (select count(*) from document where testbed_id = $1) as documents
