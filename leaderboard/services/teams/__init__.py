"""Teams of a task and what their members agree to: register, invite, join, leave,
approve; the task's terms accepted before a first submission."""
