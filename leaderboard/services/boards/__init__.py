"""What open pages show that is made apart from their requests.

- A board's significance groups, computed in the worker (:mod:`.ties`).
- A team's live channels (:mod:`.channels`, :mod:`.publish`, :mod:`.polled`): what each
  viewer sees of their own (their team's newest rows under the board, one upload's
  status) is the same for every member of the team, so it is written once per change,
  where the change happens (the upload, the worker that scores), as a small file the
  proxy serves; every member's page polls that file. A crowd of open pages then costs
  the proxy a few hundred bytes a poll and Django nothing, and a change one render per
  team.
"""
