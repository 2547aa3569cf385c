print('bom ok')
