! Bounds are read once, on entry to the loop (NPB CG's sparse): the DO
! variable is that value plus the step times the iteration, whether the
! bound is a scalar two definitions reach or an element of an index array.
subroutine bounds(rowstr, colidx, a, x, y, n, ilow, ihigh, myid, nzrow)
  implicit none
  integer :: n, ilow, ihigh, myid, i, j, k, j1, j2
  integer :: rowstr(n + 1), colidx(*)
  double precision :: a(*), x(n), y(n), sum, nzrow
  j1 = ilow + 1
  j2 = ihigh + 1
  if (myid == 0) then
    j1 = 1
  end if
  do j = j1, j2
    x(j) = x(j) + nzrow
  end do
  do i = 1, n
    sum = 0.0d0
    do k = rowstr(i), rowstr(i + 1) - 1
      a(k) = a(k) * 2.0d0
      sum = sum + a(k) * x(colidx(k))
    end do
    y(i) = sum
  end do
  do j = j1, j2
    x(j + 1) = x(j) + 1.0d0
  end do
end subroutine bounds
