# -*- coding: latin-1 -*-
print(len('é'), 'é')
