"""The exam pipeline's steps around the final allocation: shortlists at each stage (`shortlist`), the order of
merit from the stages' scores (`merit`), the reserve list (`reserve`), vacancies refilled after declines
(`fill`), a sliding round (`slide`), the later rounds both share (`later`), and the upgrade-only rule across
cycles (`appointed`)."""
