import re
print(re.findall(r'\d+', 'a1b22c333'), re.sub('[aeiou]', '', 'education'))
