! Work arrays: arrays each iteration writes before it reads them, whole
! or through calls that surely write them, made private to the iterations.
module coeffs
  double precision :: ce(5, 3)
end module coeffs

module scratch
  double precision :: w(0:20), v(20)
end module scratch

! Writes all of D on every call.
subroutine exact(x, y, d)
  use coeffs
  double precision :: x, y, d(5)
  integer :: m
  do m = 1, 5
    d(m) = ce(m, 1) + x * ce(m, 2) + y * ce(m, 3)
  end do
  return
end subroutine exact

! Writes D only when X is large.
subroutine maybe(x, d)
  double precision :: x, d(5)
  integer :: m
  if (x .gt. 0.5d0) then
    do m = 1, 5
      d(m) = x
    end do
  end if
end subroutine maybe

! Reads the module's W by its name.
subroutine peek(x)
  use scratch
  double precision :: x
  x = x + w(3)
end subroutine peek

program work_arrays
  use coeffs
  use scratch
  integer, parameter :: n = 30
  double precision :: u(5, n, n), temp(5), face(5, 2), r(n), s(n), t(n)
  integer :: i, j, k, m, ix
  do k = 1, 3
    do m = 1, 5
      ce(m, k) = m + 0.1d0 * k
    end do
  end do
  s = 0.0d0
  r = 0.0d0
  ! TEMP is written whole by the call before each iteration reads it.
  do j = 1, n
    do i = 1, n
      call exact(dble(i) / n, dble(j) / n, temp)
      do m = 1, 5
        u(m, i, j) = temp(m)
      end do
    end do
  end do
  ! FACE's two columns are written by calls given their first elements.
  do j = 1, n
    do i = 1, n
      do ix = 1, 2
        call exact(dble(ix - 1), dble(j) / n, face(1, ix))
      end do
      do m = 1, 5
        u(m, i, j) = u(m, i, j) + face(m, 1) * face(m, 2)
      end do
    end do
  end do
  ! The callee may leave TEMP as the last iteration left it: sequential.
  do j = 1, n
    do i = 1, n
      call maybe(dble(i) / n, temp)
      do m = 1, 5
        u(m, i, j) = u(m, i, j) + temp(m)
      end do
    end do
  end do
  ! The module's W is rewritten whole in each iteration, and printed after
  ! the loop: each iteration gets a copy, the last one is copied out.
  do k = 1, n
    do i = 0, 20
      w(i) = u(1, k, 1) + i
    end do
    do i = 1, 19
      r(k) = r(k) + w(i - 1) * w(i + 1)
    end do
  end do
  ! V's elements 1 to K: not the same in every iteration, sequential.
  do k = 1, 20
    do i = 1, k
      v(i) = u(2, k, 2) + i
    end do
    s(k) = v(1) + v(k)
  end do
  ! PEEK reads the module's W, which a copy would hide: sequential.
  do k = 1, n
    do i = 0, 20
      w(i) = u(3, k, 3) - i
    end do
    t(k) = 0.0d0
    call peek(t(k))
  end do
  print '(f20.6)', sum(u), sum(r), sum(s), sum(t), sum(w), sum(v)
  print '(f20.6)', temp(1) + temp(5)
end program work_arrays
