"""The problem's data every stage reads: the candidates in merit order and the vacancy table (`problem`), each
candidate's ranked posts (`ranking`), the names the stages share (`routes`, `kinds`), frozen records
(`frozen`), caste schedules (`castes`), and synthetic recruitments (`instances`)."""
