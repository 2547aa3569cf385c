print('héllo wörld ✓ 中文 🎉')
