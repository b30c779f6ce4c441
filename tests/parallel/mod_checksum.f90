! Checksums S = MOD(S + X, M) on INTEGERs (issue 35): a reduction when
! every term X is never negative and S starts in 0..M-1, so that each
! MOD is the arithmetic remainder; OpenMP adds the threads' partial
! results and one MOD after the loop gives the sequential value.
program mod_checksum
  implicit none
  integer, parameter :: n = 10000
  integer :: a(n), i, j, s, t, u, v, w
  do i = 1, n
    a(i) = mod(37 * i, 101) - 50
  end do
  ! Reductions: I*I and MODULO(A(I), 7) are never negative; S starts at 0.
  s = 0
  do i = 1, n
    s = mod(s + i * i + modulo(a(i), 7), 9973)
  end do
  ! T starts at 3 before the J loop; each J adds its sum.
  t = 3
  do j = 1, 20
    do i = 1, n
      t = mod(t + j * i + mod(i, 13), 1009)
    end do
  end do
  ! Not reductions: A(I) may be negative (U's running sum changes sign);
  ! V starts at 2000, past its modulus; W has two moduli.
  u = 0
  do i = 1, n
    u = mod(u + a(i), 997)
  end do
  v = 2000
  do i = 1, n
    v = mod(v + i, 997)
  end do
  w = 0
  do i = 1, n
    w = mod(w + i, 997)
    w = mod(w + 2 * i, 991)
  end do
  print *, s, t, u, v, w
end program mod_checksum
