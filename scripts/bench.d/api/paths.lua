-- wrk script of `scripts/bench api`: each request takes the next path of the file named by the
-- PATHS environment variable (one per line), so a run reads many posts, tags, authors and
-- search words rather than one cached answer.
local paths = {}
for line in io.lines(os.getenv("PATHS")) do
  if #line > 0 then
    paths[#paths + 1] = line
  end
end
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("offset", counter * 7919)
end

function init(args)
  next_index = offset or 0
end

function request()
  next_index = next_index + 1
  return wrk.format("GET", paths[(next_index % #paths) + 1])
end
