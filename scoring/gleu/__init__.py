"""GLEU (Napoles et al., 2015/2016), both variants the field uses: the official script's
and MultiGEC-2025's; n-gram counts indexed once per dataset."""
